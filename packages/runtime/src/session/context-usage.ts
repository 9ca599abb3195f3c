import { calculateContextTokens, estimateProjectedContextTokens } from "@arbor/compaction";
import { getLatestCompactionEntry } from "@arbor/session-store";
import { currentCompactionSettings, type SessionCore } from "../internal/session-core";

/** How full the model's context is, for a status line. */
export interface ContextUsage {
  /** Projected context tokens; `null` right after a compaction, until a new response reports usage. */
  tokens: number | null;
  contextWindow: number;
  /** `tokens / contextWindow * 100`; `null` when `tokens` is. */
  percent: number | null;
  /** Automatic compaction triggers above this many tokens (`contextWindow - reserveTokens`). */
  threshold: number;
}

/**
 * pi's `getContextUsage` (see packages/runtime/docs/reference.md#api): `undefined` when the model has no context window; after a compaction,
 * `tokens: null` until an assistant response after it reports usage (its numbers would describe the
 * old context); otherwise the projected estimate (provider usage plus estimates of what followed it,
 * or a pure estimate when an edit or compaction is newer than that usage).
 */
export function getContextUsage(core: SessionCore): ContextUsage | undefined {
  const contextWindow = core.model.contextWindow;
  if (!(contextWindow > 0)) return undefined;
  const threshold = contextWindow - currentCompactionSettings(core).reserveTokens;
  const projection = core.store.getProjection();
  const branch = core.store.getBranch();
  const latest = getLatestCompactionEntry(branch);
  if (latest !== null) {
    const withUsage = new Set<string>();
    for (const entry of projection.entries) {
      const valid = entry.messages.some(
        (message) =>
          message.role === "assistant" &&
          message.stopReason !== "aborted" &&
          message.stopReason !== "error" &&
          calculateContextTokens(message.usage) > 0,
      );
      if (valid) withUsage.add(entry.sourceEntry.id);
    }
    const index = branch.findIndex((entry) => entry.id === latest.id);
    if (!branch.slice(index + 1).some((entry) => withUsage.has(entry.id))) {
      return { tokens: null, contextWindow, percent: null, threshold };
    }
  }
  const { tokens } = estimateProjectedContextTokens(projection, branch, { tokenCounter: core.tokenCounter });
  return { tokens, contextWindow, percent: (tokens / contextWindow) * 100, threshold };
}
