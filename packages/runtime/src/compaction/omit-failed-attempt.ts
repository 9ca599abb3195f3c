import type { AssistantMessage } from "@arbor/providers";
import { findMessageEntryId } from "../internal/find-message-entry-id";
import type { SessionCore } from "../internal/session-core";

/**
 * Hides a failed response from the model without deleting it (pi's `_omitRecoveryAttempt`): appends
 * `context_edit(target, null)` for the response's entry and for each tool result that follows it in
 * the projected context (up to the next assistant) and answers one of its tool calls, so a call and
 * its result are omitted together. A response that is not in the session has nothing to omit.
 * The response must be in the projected context when it is in the session (`checkResponse` recovers
 * no other).
 *
 * @throws store errors as thrown.
 */
export function omitFailedAttempt(core: SessionCore, message: AssistantMessage): void {
  const responseId = findMessageEntryId(core, message);
  if (responseId === undefined) return;
  const callIds = new Set(
    message.content.filter((block) => block.type === "toolCall").map((block) => block.id),
  );
  const projected = core.store.getProjection().entries.flatMap(({ sourceEntry, messages }) =>
    messages.map((projectedMessage) => ({
      id: sourceEntry.id,
      message: projectedMessage,
    })),
  );
  const start = projected.findIndex(({ id }) => id === responseId);
  const targets = [responseId];
  for (const { id, message: candidate } of projected.slice(start + 1)) {
    if (candidate.role === "assistant") break;
    if (candidate.role === "toolResult" && callIds.has(candidate.toolCallId)) targets.push(id);
  }
  for (const id of targets) core.store.appendContextEdit(id, null);
}
