import type { AgentMessage } from "@arbor/agent-loop";
import type { SessionCore } from "./session-core";

/**
 * The id of the entry a message object came from: the id recorded when this session appended it,
 * else the branch entry holding this very object, else the projected entry that contributes it
 * (edited copies included). `undefined` when the message is not in the session.
 */
export function findMessageEntryId(core: SessionCore, message: AgentMessage): string | undefined {
  const recorded = core.entryIds.get(message);
  if (recorded !== undefined) return recorded;
  const branch = core.store.getBranch();
  for (let index = branch.length - 1; index >= 0; index--) {
    const entry = branch[index];
    if (entry?.type === "message" && entry.message === message) return entry.id;
  }
  for (const projected of core.store.getProjection().entries) {
    if (projected.messages.includes(message)) return projected.sourceEntry.id;
  }
  return undefined;
}
