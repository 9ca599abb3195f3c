/** Package version of @arbor/providers. */
export const VERSION = "0.1.0";
