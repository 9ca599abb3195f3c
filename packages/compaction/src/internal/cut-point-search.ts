import type { AgentMessage } from "@arbor/agent-loop";

/** Where to cut: see `findCutPoint`. */
export interface CutPointResult {
  /** Index of the first entry kept verbatim. */
  firstKeptEntryIndex: number;
  /** When the cut splits a turn: index of the entry that starts that turn; otherwise -1. */
  turnStartIndex: number;
  /** True when the cut falls inside a turn (after its user message). */
  isSplitTurn: boolean;
}

/**
 * A read-only view of a sequence of entries for the cut-point search: raw branch entries or projected
 * entries. Implementations compute messages and tokens lazily and cache them.
 */
export interface CutPointSource {
  isCompaction(index: number): boolean;
  messages(index: number): readonly AgentMessage[];
  tokens(index: number): number;
}

/** Roles the kept range may start with: anything except tool results, system messages and unknown roles. */
export function isCutPointMessage(message: AgentMessage): boolean {
  switch (message.role) {
    case "user":
    case "assistant":
    case "bashExecution":
    case "custom":
    case "branchSummary":
    case "compactionSummary":
      return true;
    default:
      return false;
  }
}

/** Roles that start a turn: the cut-point roles minus `assistant`. */
export function isTurnStartMessage(message: AgentMessage): boolean {
  return message.role !== "assistant" && isCutPointMessage(message);
}

function isCutPoint(source: CutPointSource, index: number): boolean {
  return !source.isCompaction(index) && source.messages(index).some(isCutPointMessage);
}

function isTurnStart(source: CutPointSource, index: number): boolean {
  return !source.isCompaction(index) && source.messages(index).some(isTurnStartMessage);
}

/** Index of the entry starting the turn that contains `index`, scanning back to `start`; -1 if none. */
export function searchTurnStart(source: CutPointSource, index: number, start: number): number {
  for (let candidate = index; candidate >= start; candidate--)
    if (isTurnStart(source, candidate)) return candidate;
  return -1;
}

/**
 * Walks back from the newest entry accumulating tokens until `keepRecentTokens` is reached, then picks
 * the nearest cut point at or after that entry (or the last cut point when none follows: trailing tool
 * results that alone exceed the budget keep their assistant). When the budget is never reached the cut
 * is the first cut point. Returns `undefined` when the range has no cut point at all.
 *
 * Lazy: cut points are looked up around the stopping entry only, so the cost is proportional to the
 * kept range, not to the whole range.
 */
export function searchCutIndex(
  source: CutPointSource,
  start: number,
  end: number,
  keepRecentTokens: number,
): { cutIndex: number; exceededBudget: boolean } | undefined {
  let lastCutPoint = -1;
  for (let index = end - 1; index >= start; index--) {
    if (isCutPoint(source, index)) {
      lastCutPoint = index;
      break;
    }
  }
  if (lastCutPoint < 0) return undefined;
  let accumulated = 0;
  for (let index = end - 1; index >= start; index--) {
    const tokens = source.tokens(index);
    if (tokens === 0) continue;
    accumulated += tokens;
    if (accumulated >= keepRecentTokens) {
      for (let candidate = index; candidate < end; candidate++) {
        if (isCutPoint(source, candidate)) return { cutIndex: candidate, exceededBudget: true };
      }
      return { cutIndex: lastCutPoint, exceededBudget: true };
    }
  }
  for (let index = start; index < end; index++) {
    if (isCutPoint(source, index)) return { cutIndex: index, exceededBudget: false };
  }
  return { cutIndex: lastCutPoint, exceededBudget: false };
}

/**
 * Moves the cut back over adjacent entries that contribute nothing (model changes, labels, ...) so they
 * stay with the kept range, stopping at a compaction or a visible entry; then detects a split turn.
 */
export function finishCutPoint(source: CutPointSource, cutIndex: number, start: number): CutPointResult {
  let index = cutIndex;
  while (index > start) {
    const previous = index - 1;
    if (source.isCompaction(previous) || source.messages(previous).length > 0) break;
    index--;
  }
  const startsTurn = isTurnStart(source, index);
  const turnStartIndex = startsTurn ? -1 : searchTurnStart(source, index, start);
  return { firstKeptEntryIndex: index, turnStartIndex, isSplitTurn: !startsTurn && turnStartIndex !== -1 };
}
