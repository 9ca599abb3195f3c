import type { SessionEntry } from "@arbor/session-store";

/** The read access branch summarization needs from a session (a `SessionStore` satisfies it). */
export interface BranchSummarySessionView {
  /** Root→entry path of `id` (empty for an unknown id). */
  getBranch(id: string): readonly SessionEntry[];
  /** The entry with this id, if any. */
  getEntry(id: string): SessionEntry | undefined;
}

/** Result of {@link collectEntriesForBranchSummary}. */
export interface BranchSummaryEntries {
  /** Entries from just after the common ancestor to the old leaf, oldest first. */
  entries: SessionEntry[];
  /** The deepest entry on both paths, or `null` when the paths share nothing. */
  commonAncestorId: string | null;
}

/**
 * Collects the entries a branch summary covers when navigating from `oldLeafId` to `targetId`
 * (pi 1.6.0's `collectEntriesForBranchSummary`):
 * - the common ancestor is the deepest entry of the target's path that is also on the old leaf's path
 *   (the target itself when it is an ancestor of the old leaf);
 * - entries are walked from the old leaf up to, and excluding, the common ancestor, then returned oldest
 *   first. Compaction entries are not a boundary: they are included (their summaries become context).
 *
 * A null or empty `oldLeafId` gives no entries and a `null` ancestor. The walk stops at a missing
 * parent. Pure: reads the session, never mutates it.
 */
export function collectEntriesForBranchSummary(
  session: BranchSummarySessionView,
  oldLeafId: string | null | undefined,
  targetId: string,
): BranchSummaryEntries {
  if (!oldLeafId) return { entries: [], commonAncestorId: null };
  const oldPath = new Set(session.getBranch(oldLeafId).map((entry) => entry.id));
  const targetPath = session.getBranch(targetId);
  let commonAncestorId: string | null = null;
  for (let index = targetPath.length - 1; index >= 0; index--) {
    const id = (targetPath[index] as SessionEntry).id;
    if (oldPath.has(id)) {
      commonAncestorId = id;
      break;
    }
  }
  const entries: SessionEntry[] = [];
  let current: string | null = oldLeafId;
  while (current && current !== commonAncestorId) {
    const entry = session.getEntry(current);
    if (!entry) break;
    entries.push(entry);
    current = entry.parentId;
  }
  entries.reverse();
  return { entries, commonAncestorId };
}
