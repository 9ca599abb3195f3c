/** Package version of @arbor/runtime. */
export const VERSION = "0.1.0";
