/** Marker for the tiktoken subpath of @arbor/compaction. */
export const SUBPATH = "tiktoken";
