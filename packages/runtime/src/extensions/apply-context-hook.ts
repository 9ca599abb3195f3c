import { type AgentMessage, replaySystemMessages } from "@arbor/agent-loop";
import type { HookBus } from "@arbor/extensions";
import type { RuntimeHooks } from "../events/runtime-hooks";
import { findInvalidMessages } from "./find-invalid-messages";

/**
 * pi's `context` event: handlers receive a deep copy of the next request's messages without system
 * messages and may return `{ messages }` or edit `event.messages` in place (every handler of the
 * dispatch shares that one copy, so the edits chain). When the list changed, the result gets one
 * system message replayed from the original system messages at its head (system messages in the
 * middle are folded into it); when nothing changed, `messages` is returned as is.
 *
 * Each handler's outcome is checked (`findInvalidMessages`): a result such as `{ messages: "x" }` or
 * a list holding non-messages, or `event.messages` left that way, is a `HOOK_INVALID_RESULT`
 * hook error naming the extension; the result is ignored and `event.messages` is put back to the
 * original messages, so the request never goes out empty or malformed. A failing or hanging
 * handler is isolated by the bus (the request goes on with the other results).
 */
export async function applyContextHook(
  bus: HookBus<RuntimeHooks>,
  messages: readonly AgentMessage[],
  signal: AbortSignal,
): Promise<readonly AgentMessage[]> {
  if (bus.listenerCount("context") === 0) return messages;
  const original = messages.filter((message) => message.role !== "system");
  const visible = structuredClone(original);
  const before = JSON.stringify(visible);
  const event = { type: "context" as const, messages: visible };
  const outcome = await bus.intercept("context", event, {
    signal,
    shareEvent: true,
    validateResult(result) {
      const inPlace = findInvalidMessages(event.messages, original);
      if (inPlace !== undefined) {
        event.messages = structuredClone(original);
        return `event.messages was left invalid (put back to the original messages): ${inPlace}`;
      }
      if (result === undefined) return undefined;
      if (typeof result !== "object" || result === null)
        return "the result must be an object like { messages }";
      const returned = (result as { messages?: unknown }).messages;
      return returned === undefined ? undefined : findInvalidMessages(returned, original);
    },
  });
  const returned = outcome.result?.messages;
  const next = returned ?? event.messages;
  if (returned === undefined && JSON.stringify(next) === before) return messages;
  const system = replaySystemMessages(messages);
  return system === undefined ? next : [system, ...next];
}
