import type { ToolCall, ToolResultMessage } from "@arbor/providers";
import type { AgentLoopConfig } from "../agent-loop-config";
import type { AgentTool, AgentToolResult, AgentToolUpdate, ToolExecutionMode } from "../agent-tool";
import type { SerialEmitter } from "./serial-emitter";
import { ABORTED_TOOL_TEXT } from "./tool-result-texts";
import { validateToolArguments } from "./validate-tool-arguments";

/** What {@link executeToolCalls} needs. */
export interface ExecuteToolCallsInput {
  toolCalls: readonly ToolCall[];
  tools: ReadonlyMap<string, AgentTool>;
  defaultMode: ToolExecutionMode;
  signal: AbortSignal;
  emitter: SerialEmitter;
  /** When set, no tool runs: every call gets an error result with this text for its tool name. */
  skipWith?: (toolName: string) => string;
  /** `beforeToolCall` of the loop's config. */
  beforeToolCall?: AgentLoopConfig["beforeToolCall"];
  /** `afterToolCall` of the loop's config. */
  afterToolCall?: AgentLoopConfig["afterToolCall"];
}

interface Outcome {
  result: AgentToolResult;
  isError: boolean;
}

/**
 * Runs the tool calls of one assistant message and returns their result messages in the message's
 * order. Emits the tool events and the result messages' `message_start` / `message_end` in the
 * order documented on `AgentEvent`: neighbouring parallel calls form a group (all starts, ends in
 * completion order, then the group's result messages); a sequential call forms a group of its own.
 *
 * Never rejects for tool failures (unknown tool, invalid arguments, throw, abort): each becomes an
 * error result. Rejects only when the emitter does (a failing `onEvent`).
 */
export async function executeToolCalls(input: ExecuteToolCallsInput): Promise<ToolResultMessage[]> {
  const messages: ToolResultMessage[] = [];
  for (const group of groupCalls(input)) {
    for (const call of group) {
      await input.emitter.emit({
        type: "tool_execution_start",
        toolCallId: call.id,
        toolName: call.name,
        args: call.arguments,
      });
    }
    const outcomes = await Promise.all(
      group.map(async (call) => {
        const outcome = await runCall(call, input);
        await input.emitter.emit({
          type: "tool_execution_end",
          toolCallId: call.id,
          toolName: call.name,
          result: outcome.result,
          isError: outcome.isError,
        });
        return outcome;
      }),
    );
    for (const [index, call] of group.entries()) {
      const message = toResultMessage(call, outcomes[index] as Outcome);
      await input.emitter.emit({ type: "message_start", message });
      await input.emitter.emit({ type: "message_end", message });
      messages.push(message);
    }
  }
  return messages;
}

function groupCalls(input: ExecuteToolCallsInput): ToolCall[][] {
  const groups: ToolCall[][] = [];
  let parallel: ToolCall[] | undefined;
  for (const call of input.toolCalls) {
    const mode = input.skipWith
      ? "sequential"
      : (input.tools.get(call.name)?.executionMode ?? input.defaultMode);
    if (mode === "parallel") {
      if (parallel === undefined) {
        parallel = [];
        groups.push(parallel);
      }
      parallel.push(call);
    } else {
      parallel = undefined;
      groups.push([call]);
    }
  }
  return groups;
}

function errorOutcome(text: string): Outcome {
  return { result: { content: [{ type: "text", text }], isError: true }, isError: true };
}

async function runCall(call: ToolCall, input: ExecuteToolCallsInput): Promise<Outcome> {
  if (input.skipWith) return errorOutcome(input.skipWith(call.name));
  if (input.signal.aborted) return errorOutcome(ABORTED_TOOL_TEXT);
  const tool = input.tools.get(call.name);
  if (tool === undefined) {
    const available = [...input.tools.keys()].map((name) => `"${name}"`).join(", ") || "none";
    return errorOutcome(`There is no tool named "${call.name}". Available tools: ${available}.`);
  }
  const problems = validateToolArguments(tool.parameters, call.arguments);
  if (problems.length > 0) {
    return errorOutcome(`Invalid arguments for tool "${call.name}": ${problems.join("; ")}.`);
  }
  const info = { toolCallId: call.id, toolName: call.name, input: call.arguments };
  const refusal = await askBeforeToolCall(info, input);
  if (refusal !== undefined) return errorOutcome(refusal);
  let accepting = true;
  const updates: Array<Promise<void>> = [];
  const onUpdate = (update: AgentToolUpdate) => {
    if (!accepting) return;
    updates.push(
      input.emitter.emit({
        type: "tool_execution_update",
        toolCallId: call.id,
        toolName: call.name,
        args: call.arguments,
        partialResult: update,
      }),
    );
  };
  const settled = await settleOrAbort(
    () => tool.execute(call.arguments, { signal: input.signal, toolCallId: call.id, onUpdate }),
    input.signal,
  );
  accepting = false;
  await Promise.all(updates);
  if (settled.kind === "aborted") return errorOutcome(ABORTED_TOOL_TEXT);
  if (settled.kind === "threw") {
    const text = settled.error instanceof Error ? settled.error.message : String(settled.error);
    return errorOutcome(text.length > 0 ? text : `Tool "${call.name}" failed without a message.`);
  }
  const result = settled.value;
  const content = Array.isArray(result?.content) ? result.content : [];
  const isError = result?.isError === true;
  return afterToolCall({ result: { ...result, content, isError }, isError }, info, input);
}

/** Runs `beforeToolCall`: the refusal text when the call is blocked (a throw blocks too), else undefined. */
async function askBeforeToolCall(
  info: { toolCallId: string; toolName: string; input: Record<string, unknown> },
  input: ExecuteToolCallsInput,
): Promise<string | undefined> {
  if (input.beforeToolCall === undefined) return undefined;
  try {
    const decision = await input.beforeToolCall(info, input.signal);
    if (decision?.block !== true) return undefined;
    return decision.reason ?? `The tool call "${info.toolName}" was blocked.`;
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    return `The tool call "${info.toolName}" was blocked: its check failed (${text}).`;
  }
}

/** Runs `afterToolCall` on a result: its replacements applied; a throw keeps the result. */
async function afterToolCall(
  outcome: Outcome,
  info: { toolCallId: string; toolName: string; input: Record<string, unknown> },
  input: ExecuteToolCallsInput,
): Promise<Outcome> {
  if (input.afterToolCall === undefined) return outcome;
  try {
    const replacement = await input.afterToolCall(
      { ...info, content: outcome.result.content, details: outcome.result.details, isError: outcome.isError },
      input.signal,
    );
    if (replacement === undefined) return outcome;
    const isError = replacement.isError ?? outcome.isError;
    const result: AgentToolResult = {
      ...outcome.result,
      ...(replacement.content !== undefined ? { content: replacement.content } : {}),
      ...("details" in replacement ? { details: replacement.details } : {}),
      isError,
    };
    return { result, isError };
  } catch {
    return outcome;
  }
}

type Settled<T> = { kind: "value"; value: T } | { kind: "threw"; error: unknown } | { kind: "aborted" };

/** Runs `start` and settles with its value, its error, or `aborted` as soon as `signal` aborts. */
function settleOrAbort<T>(start: () => Promise<T>, signal: AbortSignal): Promise<Settled<T>> {
  return new Promise((resolve) => {
    const onAbort = () => resolve({ kind: "aborted" });
    signal.addEventListener("abort", onAbort, { once: true });
    const done = (settled: Settled<T>) => {
      signal.removeEventListener("abort", onAbort);
      resolve(signal.aborted ? { kind: "aborted" } : settled);
    };
    // Through a promise chain so that a synchronous throw or a non-promise return settles too.
    Promise.resolve()
      .then(start)
      .then(
        (value) => done({ kind: "value", value }),
        (error: unknown) => done({ kind: "threw", error }),
      );
  });
}

function toResultMessage(call: ToolCall, outcome: Outcome): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: outcome.result.content,
    ...(outcome.result.details === undefined ? {} : { details: outcome.result.details }),
    isError: outcome.isError,
    timestamp: Date.now(),
  };
}
