/** Package version of @arbor/session-store. */
export const VERSION = "0.1.0";
