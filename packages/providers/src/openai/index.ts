/** Marker for the openai subpath of @arbor/providers. */
export const SUBPATH = "openai";
