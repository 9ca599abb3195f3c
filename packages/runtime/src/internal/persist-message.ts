import type { AgentMessage } from "@arbor/agent-loop";
import type { SessionCore } from "./session-core";

/**
 * Writes a message the loop finished (`message_end`) to the store, as pi does: role `custom` as a
 * `custom_message` entry; `system`, `user`, `assistant`, `toolResult` and `bashExecution` as
 * `message` entries; summary roles are never written this way (they are entries of their own).
 * Records the entry id for the message object. Returns the id, or `undefined` when nothing was written.
 *
 * @throws store errors as thrown (the loop then aborts the run and the prompt rejects).
 */
export function persistMessage(core: SessionCore, message: AgentMessage): string | undefined {
  let id: string | undefined;
  if (message.role === "custom") {
    id = core.store.appendCustomMessageEntry({
      customType: message.customType,
      content: message.content,
      display: message.display,
      ...(message.details === undefined ? {} : { details: message.details }),
    }).id;
  } else if (
    message.role === "system" ||
    message.role === "user" ||
    message.role === "assistant" ||
    message.role === "toolResult" ||
    message.role === "bashExecution"
  ) {
    id = core.store.appendMessage(message).id;
  }
  if (id !== undefined) core.entryIds.set(message, id);
  return id;
}
