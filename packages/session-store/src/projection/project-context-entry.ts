import type { AgentMessage } from "@arbor/agent-loop";
import type { ContextEditEntry, SessionEntry } from "../session-entry";
import { sessionEntryToContextMessages } from "./session-entry-to-context-messages";

const EDITABLE_ROLES = new Set(["user", "assistant", "toolResult", "custom"]);

/**
 * Projects one entry into model-visible messages, applying its latest context edit:
 * - no edit: {@link sessionEntryToContextMessages} unchanged;
 * - `replacement: null`: nothing (the entry stays in the history but the model does not see it);
 * - otherwise every produced user/assistant/toolResult/custom message gets the replacement `content`
 *   (every other field kept). For assistant and toolResult a string becomes one text block; user and
 *   custom keep a string as is. Messages of other roles pass through unchanged.
 *
 * Pure: returns new message objects, never mutates `entry` or `edit`.
 */
export function projectContextEntry(entry: SessionEntry, edit?: ContextEditEntry | null): AgentMessage[] {
  const messages = sessionEntryToContextMessages(entry);
  if (!edit) return messages;
  const replacement = edit.replacement;
  if (replacement === null) return [];
  return messages.map((message) => {
    if (!EDITABLE_ROLES.has(message.role)) return message;
    const wrapsString =
      (message.role === "assistant" || message.role === "toolResult") &&
      typeof replacement?.content === "string";
    const content = wrapsString ? [{ type: "text", text: replacement.content }] : replacement?.content;
    return { ...message, content } as AgentMessage;
  });
}
