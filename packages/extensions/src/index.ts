/** Package version of @arbor/extensions. */
export const VERSION = "0.1.0";
