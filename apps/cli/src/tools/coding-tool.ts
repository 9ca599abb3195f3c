import type { ImageContent, TextContent } from "@arbor/providers";

/** What a built-in coding tool returns: the content the model sees plus details for the UI. */
export interface CodingToolOutput {
  content: Array<TextContent | ImageContent>;
  /** Structured data for renderers and tests; never sent to the model. */
  details?: Record<string, unknown>;
}

/**
 * A built-in coding tool (read, write, edit, bash), independent of the agent loop's tool type.
 *
 * Contract of `execute`: it validates its arguments, works relative to the tool's working folder, and
 * throws an `Error` whose message is meant for the model when the call fails (missing file, ambiguous
 * edit, non-zero exit). It honours `signal` where the work can be interrupted (bash) and never mutates
 * `args`.
 */
export interface CodingTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object schema). */
  parameters: Record<string, unknown>;
  execute(args: Record<string, unknown>, signal?: AbortSignal): Promise<CodingToolOutput>;
}

/** Wraps text in the single text block tools return. */
export function textOutput(text: string, details?: Record<string, unknown>): CodingToolOutput {
  return details === undefined
    ? { content: [{ type: "text", text }] }
    : { content: [{ type: "text", text }], details };
}
