import { type AgentMessage, replaySystemMessages } from "@arbor/agent-loop";
import type { HookBus } from "@arbor/extensions";
import type { RuntimeHooks } from "../events/runtime-hooks";

/**
 * pi's `context` event: handlers receive a deep copy of the next request's messages without system
 * messages and may return `{ messages }` or edit `event.messages` in place. When the list changed,
 * the result gets one system message replayed from the original system messages at its head (system
 * messages in the middle are folded into it); when nothing changed, `messages` is returned as is.
 * A failing or hanging handler is isolated by the bus (the request goes on with the other results).
 */
export async function applyContextHook(
  bus: HookBus<RuntimeHooks>,
  messages: readonly AgentMessage[],
  signal: AbortSignal,
): Promise<readonly AgentMessage[]> {
  if (bus.listenerCount("context") === 0) return messages;
  const visible = structuredClone(messages.filter((message) => message.role !== "system"));
  const before = JSON.stringify(visible);
  const event = { type: "context" as const, messages: visible };
  const outcome = await bus.intercept("context", event, { signal });
  const returned = outcome.result?.messages;
  const next = returned ?? event.messages;
  if (returned === undefined && JSON.stringify(next) === before) return messages;
  const system = replaySystemMessages(messages);
  return system === undefined ? next : [system, ...next];
}
