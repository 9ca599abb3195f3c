import type { ImageContent, TextContent } from "@arbor/providers";

/**
 * How a tool's calls run when one response asks for several:
 * - `"parallel"`: runs at the same time as the neighbouring parallel calls of the same response;
 * - `"sequential"`: runs alone: every earlier call has finished before it starts, and later calls
 *   start only after it finished.
 */
export type ToolExecutionMode = "sequential" | "parallel";

/** What a tool returns. */
export interface AgentToolResult {
  /** What the model reads. */
  content: Array<TextContent | ImageContent>;
  /** Structured data for the application (UI, logs); never sent to the model. */
  details?: unknown;
  /** Marks the result as a failure the model should see as such (no throw needed). */
  isError?: boolean;
}

/** A partial result a running tool reports through `onUpdate`, for progress display. */
export interface AgentToolUpdate {
  content?: Array<TextContent | ImageContent>;
  details?: unknown;
}

/** What the loop hands a tool's `execute` besides the arguments. */
export interface AgentToolExecuteContext {
  /** Aborted when the run is aborted. The loop stops waiting for the tool at that moment. */
  signal: AbortSignal;
  /** Id of the tool call being executed (from the assistant message). */
  toolCallId: string;
  /**
   * Reports progress; each call becomes a `tool_execution_update` event. Calls after `execute`
   * settled are ignored. Never throws.
   */
  onUpdate: (update: AgentToolUpdate) => void;
}

/**
 * A tool the model may call, with the code that runs it.
 *
 * Arguments are checked against `parameters` before `execute` runs, minimally: the object's
 * `required` keys must be present and each declared property's `type` (string, number, integer,
 * boolean, object, array, null, or a list of them) and `enum` must match. Nested schemas, formats,
 * ranges and `additionalProperties` are the tool's own business. A failed check becomes an error
 * tool result and `execute` is not called.
 */
export interface AgentTool<TArgs extends Record<string, unknown> = Record<string, unknown>> {
  /** Unique name the model calls the tool by. */
  name: string;
  /** What the tool does, for the model. */
  description: string;
  /** JSON Schema (an object schema) of the arguments. */
  parameters: Record<string, unknown>;
  /**
   * Runs one call.
   *
   * Contract: may throw or reject; the loop turns that into an error tool result whose text is the
   * error's message. Return `isError: true` to report a failure without throwing. Should honour
   * `context.signal`: after an abort the loop records an aborted result at once and ignores whatever
   * `execute` resolves later. Must not mutate `args`.
   */
  execute(args: TArgs, context: AgentToolExecuteContext): Promise<AgentToolResult>;
  /** How this tool's calls are scheduled; defaults to the loop's `toolExecution` (itself `"parallel"`). */
  executionMode?: ToolExecutionMode;
}
