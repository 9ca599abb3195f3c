import { type SessionEntry, sessionEntryToContextMessages } from "@arbor/session-store";
import type { BranchProjection } from "../internal/branch-projection";
import { type CutPointResult, finishCutPoint, searchCutIndex } from "../internal/cut-point-search";

function isIntrinsicallyVisible(entry: SessionEntry): boolean {
  return entry.type !== "context_edit" && sessionEntryToContextMessages(entry).length > 0;
}

/**
 * After an overflow or truncated-response recovery, the failed assistant (and its tool results) are
 * omitted by `replacement: null` edits that follow the last visible input. When the budget was exceeded,
 * the suffix after the cut holds such an omitted assistant, and nothing else in that suffix is visible or
 * a compaction or an edit that replaces something outside the suffix, the cut moves one entry later so
 * that the unsent input gets summarized (pi 1.6.0's recovery special case).
 */
function advancesPastRecovery(projection: BranchProjection, cutIndex: number, end: number): boolean {
  const omitted = new Set<string>();
  let hasOmittedAssistant = false;
  for (let index = cutIndex + 1; index < end; index++) {
    const entry = projection.entryAt(index);
    if (entry.type === "compaction") return false;
    const visible = isIntrinsicallyVisible(entry);
    const isOmitted = visible && projection.messages(index).length === 0;
    if (visible && !isOmitted) return false;
    if (isOmitted) {
      omitted.add(entry.id);
      if (entry.type === "message" && entry.message.role === "assistant") hasOmittedAssistant = true;
    }
  }
  if (!hasOmittedAssistant) return false;
  for (let index = cutIndex + 1; index < end; index++) {
    const entry = projection.entryAt(index);
    if (entry.type === "context_edit" && entry.replacement !== null && !omitted.has(entry.targetId))
      return false;
  }
  return true;
}

/**
 * pi's projected cut point: the `findCutPoint` algorithm over the edited projection (omitted entries
 * have no tokens and are no cut points), plus the recovery advance, then the metadata walk-back and the
 * split-turn detection on projected messages.
 */
export function findProjectedCutPoint(
  projection: BranchProjection,
  start: number,
  end: number,
  keepRecentTokens: number,
): CutPointResult {
  const search = searchCutIndex(projection, start, end, keepRecentTokens);
  if (search === undefined) return { firstKeptEntryIndex: start, turnStartIndex: -1, isSplitTurn: false };
  let cutIndex = search.cutIndex;
  if (search.exceededBudget && advancesPastRecovery(projection, cutIndex, end)) cutIndex++;
  return finishCutPoint(projection, cutIndex, start);
}
