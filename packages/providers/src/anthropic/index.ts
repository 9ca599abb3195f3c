/** Marker for the anthropic subpath of @arbor/providers. */
export const SUBPATH = "anthropic";
