import type { AgentTool, AgentToolResult } from "@arbor/agent-loop";

/**
 * A built-in coding tool: an `AgentTool` whose `execute` validates its arguments, works relative to
 * the tool's working folder and throws an `Error` whose message is meant for the model when the call
 * fails (missing file, ambiguous edit, non-zero exit); the loop turns that into an error result.
 */
export type CodingTool = AgentTool;

/** Wraps text in the single text block tools return. */
export function textOutput(text: string, details?: Record<string, unknown>): AgentToolResult {
  return details === undefined
    ? { content: [{ type: "text", text }] }
    : { content: [{ type: "text", text }], details };
}
