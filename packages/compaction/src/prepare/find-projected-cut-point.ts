import { type SessionEntry, sessionEntryToContextMessages } from "@arbor/session-store";
import { BranchProjection } from "../internal/branch-projection";
import { type CutPointResult, finishCutPoint, searchCutIndex } from "../internal/cut-point-search";
import { defaultTokenCounter, type TokenCounter } from "../tokens/token-counter";

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
export function searchProjectedCutPoint(
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

/** Where a compaction of a branch would cut, by entry (see {@link findProjectedCutPoint}). */
export interface ProjectedCutPoint {
  /** First context entry kept verbatim; `undefined` when the branch is empty. */
  firstKeptEntryId: string | undefined;
  /** When the cut splits a turn: the entry that starts that turn; otherwise `undefined`. */
  turnStartEntryId: string | undefined;
  /** True when the cut falls inside a turn (after its user message). */
  isSplitTurn: boolean;
}

/**
 * The cut point `prepareCompaction` uses, for a root→leaf branch (`store.getBranch()`): pi's
 * `findCutPoint` run over the *projected* context since the latest compaction (context edits applied:
 * omitted entries have no tokens and are no cut points, replaced ones count with their replacement),
 * keeping about `keepRecentTokens`, plus pi's recovery special case (an omitted failed response after
 * the cut moves it one entry later). Pure; never mutates the entries.
 */
export function findProjectedCutPoint(
  branchEntries: readonly SessionEntry[],
  keepRecentTokens: number,
  options: { tokenCounter?: TokenCounter } = {},
): ProjectedCutPoint {
  if (branchEntries.length === 0)
    return { firstKeptEntryId: undefined, turnStartEntryId: undefined, isSplitTurn: false };
  const projection = new BranchProjection(branchEntries, options.tokenCounter ?? defaultTokenCounter);
  const start = projection.isCompaction(0) && projection.messages(0).length > 0 ? 1 : 0;
  const cut = searchProjectedCutPoint(projection, start, projection.length, keepRecentTokens);
  const idAt = (index: number) =>
    index >= 0 && index < projection.length ? projection.entryAt(index).id : undefined;
  return {
    firstKeptEntryId: idAt(cut.firstKeptEntryIndex),
    turnStartEntryId: cut.isSplitTurn ? idAt(cut.turnStartIndex) : undefined,
    isSplitTurn: cut.isSplitTurn,
  };
}
