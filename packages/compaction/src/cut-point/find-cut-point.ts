import type { AgentMessage } from "@arbor/agent-loop";
import { type SessionEntry, sessionEntryToContextMessages } from "@arbor/session-store";
import {
  type CutPointResult,
  type CutPointSource,
  finishCutPoint,
  searchCutIndex,
  searchTurnStart,
} from "../internal/cut-point-search";
import { countEntryCached } from "../internal/message-token-cache";
import { defaultTokenCounter, type TokenCounter } from "../tokens/token-counter";

export type { CutPointResult } from "../internal/cut-point-search";

/** Options of {@link findCutPoint}. */
export interface FindCutPointOptions {
  /** Token counter for the walk. Default: pi's chars/4 estimate. */
  tokenCounter?: TokenCounter;
}

/** A cut-point view of raw entries: each entry contributes its unedited context messages. */
function rawSource(entries: readonly SessionEntry[], counter: TokenCounter): CutPointSource {
  const cache = new Map<number, readonly AgentMessage[]>();
  const messages = (index: number): readonly AgentMessage[] => {
    let result = cache.get(index);
    if (result === undefined) {
      result = sessionEntryToContextMessages(entries[index] as SessionEntry);
      cache.set(index, result);
    }
    return result;
  };
  return {
    isCompaction: (index) => entries[index]?.type === "compaction",
    messages,
    tokens: (index) => countEntryCached(counter, entries[index] as SessionEntry, () => messages(index)),
  };
}

/**
 * Finds where to cut raw branch entries so that about `keepRecentTokens` of recent history is kept
 * (pi 1.6.0's exported `findCutPoint`), considering only `entries[startIndex .. endIndex)`:
 * 1. walk back from the newest entry summing each entry's estimated tokens (entries worth 0 are
 *    skipped); once the sum reaches `keepRecentTokens`, cut at the nearest cut point at or after that
 *    entry, or at the last cut point when none follows; if the budget is never reached, cut at the first
 *    cut point (nothing is summarized);
 * 2. cut points are entries contributing a user, assistant, bashExecution, custom, branchSummary or
 *    compactionSummary message, never a tool result, a system message or a compaction entry (tool results
 *    stay with their call);
 * 3. entries right before the cut that contribute nothing (labels, model changes, …) move into the kept
 *    range, stopping at a compaction or a visible entry;
 * 4. when the cut entry does not start a turn, the turn's start is searched backwards: a split turn.
 *
 * No cut point in the range gives `{ firstKeptEntryIndex: startIndex, turnStartIndex: -1, isSplitTurn: false }`.
 * Context edits are not applied here (use `prepareCompaction` for the edited projection). Pure; token
 * counts are cached per entry object.
 */
export function findCutPoint(
  entries: readonly SessionEntry[],
  startIndex: number,
  endIndex: number,
  keepRecentTokens: number,
  options: FindCutPointOptions = {},
): CutPointResult {
  const source = rawSource(entries, options.tokenCounter ?? defaultTokenCounter);
  const search = searchCutIndex(source, startIndex, endIndex, keepRecentTokens);
  if (search === undefined)
    return { firstKeptEntryIndex: startIndex, turnStartIndex: -1, isSplitTurn: false };
  return finishCutPoint(source, search.cutIndex, startIndex);
}

/**
 * Index of the entry that starts the turn containing `entryIndex`: scanning back to `startIndex`, the
 * first entry (not a compaction) contributing a user, bashExecution, custom, branchSummary or
 * compactionSummary message. -1 when there is none. Equal to pi 1.6.0. Pure.
 */
export function findTurnStartIndex(
  entries: readonly SessionEntry[],
  entryIndex: number,
  startIndex: number,
): number {
  return searchTurnStart(rawSource(entries, defaultTokenCounter), entryIndex, startIndex);
}
