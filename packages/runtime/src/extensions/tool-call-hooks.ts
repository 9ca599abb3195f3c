import type { AgentLoopConfig } from "@arbor/agent-loop";
import type { HookBus } from "@arbor/extensions";
import type { RuntimeHooks } from "../events/runtime-hooks";

/** What a `tool_call` handler may return, checked before the bus uses it. */
function checkToolCallResult(result: unknown): string | undefined {
  if (result === undefined) return undefined;
  if (typeof result !== "object" || result === null) return "expected { block?: boolean, reason?: string }";
  const { block, reason } = result as { block?: unknown; reason?: unknown };
  if (block !== undefined && typeof block !== "boolean") return "block must be a boolean";
  if (reason !== undefined && typeof reason !== "string") return "reason must be a string";
  return undefined;
}

/** What a `tool_result` handler may return, checked before the bus uses it. */
function checkToolResultResult(result: unknown): string | undefined {
  if (result === undefined) return undefined;
  if (typeof result !== "object" || result === null) return "expected { content?, details?, isError? }";
  const { content, isError } = result as { content?: unknown; isError?: unknown };
  if (content !== undefined && !Array.isArray(content)) return "content must be an array of content blocks";
  if (isError !== undefined && typeof isError !== "boolean") return "isError must be a boolean";
  return undefined;
}

/**
 * The loop's `beforeToolCall` / `afterToolCall` seams dispatched to the extensions' `tool_call` and
 * `tool_result` hooks (nothing is dispatched when no extension listens). A block by any `tool_call`
 * handler stands (later handlers cannot lift it); a handler that fails does not block the call (it is
 * a `hook_error`); an invalid result is ignored (`HOOK_INVALID_RESULT`).
 */
export function createToolCallHooks(
  bus: HookBus<RuntimeHooks>,
): Pick<AgentLoopConfig, "beforeToolCall" | "afterToolCall"> {
  return {
    beforeToolCall: async (call, signal) => {
      if (bus.listenerCount("tool_call") === 0) return undefined;
      // A block by any handler stands, whatever later handlers return: the first one is kept.
      let blocked: { block: true; reason: string } | undefined;
      const event = {
        type: "tool_call" as const,
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        input: call.input,
      };
      await bus.intercept("tool_call", event, {
        signal,
        shareEvent: true,
        validateResult: (result) => {
          const problem = checkToolCallResult(result);
          const decision = result as { block?: boolean; reason?: string } | undefined;
          if (problem === undefined && decision?.block === true && blocked === undefined) {
            blocked = {
              block: true,
              reason: decision.reason ?? `The tool call "${call.toolName}" was blocked by an extension.`,
            };
          }
          return problem;
        },
      });
      return blocked;
    },
    afterToolCall: async (result, signal) => {
      if (bus.listenerCount("tool_result") === 0) return undefined;
      const outcome = await bus.intercept(
        "tool_result",
        {
          type: "tool_result",
          toolCallId: result.toolCallId,
          toolName: result.toolName,
          input: result.input,
          content: result.content,
          details: result.details,
          isError: result.isError,
        },
        { signal, validateResult: checkToolResultResult },
      );
      return outcome.result;
    },
  };
}
