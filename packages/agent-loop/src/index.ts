/** Package version of @arbor/agent-loop. */
export const VERSION = "0.1.0";
