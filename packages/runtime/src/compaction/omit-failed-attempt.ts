import type { AgentMessage } from "@arbor/agent-loop";
import type { AssistantMessage } from "@arbor/providers";
import { findMessageEntryId } from "../internal/find-message-entry-id";
import type { SessionCore } from "../internal/session-core";
import { RuntimeError } from "../runtime-error";

/**
 * Hides a failed response from the model without deleting it (pi's `_omitRecoveryAttempt`): appends
 * `context_edit(target, null)` for the assistant entry and for each tool result that follows it in
 * the projected context (up to the next assistant) and answers one of its tool calls, so a call and
 * its result are omitted together. Returns the ids of the edit entries, in order.
 *
 * @throws RuntimeError `INVALID_ARGUMENT` when a projected target has no source entry (nothing is
 * appended then); store errors as thrown.
 */
export function omitFailedAttempt(core: SessionCore, message: AssistantMessage): string[] {
  const callIds = new Set(message.content.flatMap((block) => (block.type === "toolCall" ? [block.id] : [])));
  const assistantId = findMessageEntryId(core, message);
  const projected = core.store.getProjection().messages;
  const index = projected.findIndex(
    (candidate) =>
      candidate === message || (assistantId !== undefined && core.entryIds.get(candidate) === assistantId),
  );
  const results: AgentMessage[] = [];
  for (const candidate of index < 0 ? [] : projected.slice(index + 1)) {
    if (candidate.role === "assistant") break;
    if (candidate.role === "toolResult" && callIds.has(candidate.toolCallId)) results.push(candidate);
  }
  const targets = [message, ...results].map((target) => ({ target, id: findMessageEntryId(core, target) }));
  const missing = targets.find(({ target, id }) => id === undefined && projected.includes(target));
  if (missing) {
    throw new RuntimeError(
      "INVALID_ARGUMENT",
      `Cannot omit the failed ${missing.target.role} message: it is in the context but has no session entry`,
    );
  }
  const editIds: string[] = [];
  for (const { id } of targets) {
    if (id !== undefined) editIds.push(core.store.appendContextEdit(id, null).id);
  }
  return editIds;
}
