/** Package version of @arbor/compaction. */
export const VERSION = "0.1.0";
