/** Marker for the testing subpath of @arbor/providers. */
export const SUBPATH = "testing";
