import { estimateProjectedContextTokens, shouldCompact } from "@arbor/compaction";
import { getLatestCompactionEntry } from "@arbor/session-store";
import type { RunState } from "../internal/run-state";
import { currentCompactionSettings, notify, type SessionCore } from "../internal/session-core";
import { RuntimeError } from "../runtime-error";
import { runCompaction } from "./run-compaction";

/** What an automatic compaction led to. */
export type AutoCompactionOutcome = "compacted" | "not-compacted" | "stopped";

/** Projected context tokens of the current leaf (provider usage only when no edit or compaction is newer). */
export function projectedContextTokens(core: SessionCore): number {
  return estimateProjectedContextTokens(core.store.getProjection(), core.store.getBranch(), {
    tokenCounter: core.tokenCounter,
  }).tokens;
}

/** Records the session's reason to stop the current prompt and emits `session_error`. */
export async function stopRun(core: SessionCore, run: RunState, error: RuntimeError): Promise<void> {
  run.error ??= error;
  await notify(core, { type: "session_error", error });
}

/** True when the branch's latest compaction is one that left the context above the threshold. */
function isStalled(core: SessionCore): boolean {
  if (core.stalledCompactionId === undefined) return false;
  return getLatestCompactionEntry(core.store.getBranch())?.id === core.stalledCompactionId;
}

/**
 * Runs an automatic compaction under the loop guard:
 * - threshold compaction is skipped after a failed automatic compaction in the same prompt, and
 *   while the branch's latest compaction is one that could not bring the context under the
 *   threshold (compacting again would summarize again and again without progress);
 * - after `maxConsecutiveAutoCompactions` compactions without a successful response in between, the
 *   prompt stops with `COMPACTION_LOOP_GUARD` instead of compacting;
 * - when a compaction leaves the projected context above the threshold (the kept part alone is too
 *   big), the prompt stops with `CONTEXT_STILL_TOO_LARGE` and no retry happens.
 *
 * Returns `compacted` only when a compaction was written and the context is now under the threshold.
 */
export async function runAutoCompaction(
  core: SessionCore,
  run: RunState,
  reason: "threshold" | "overflow",
  willRetry: boolean,
): Promise<AutoCompactionOutcome> {
  if (run.error !== undefined || run.signal.aborted) return "not-compacted";
  if (reason === "threshold" && (run.autoCompactionSuppressed || isStalled(core))) return "not-compacted";
  if (run.consecutiveAutoCompactions >= run.maxConsecutiveAutoCompactions) {
    await stopRun(
      core,
      run,
      new RuntimeError(
        "COMPACTION_LOOP_GUARD",
        `Stopped after ${run.consecutiveAutoCompactions} automatic compactions in a row without a successful response; not compacting again`,
      ),
    );
    return "stopped";
  }
  const outcome = await runCompaction(core, { reason, willRetry, signal: run.signal });
  if (outcome.status === "skipped") return "not-compacted";
  if (outcome.status === "failed") {
    if (!outcome.aborted) run.autoCompactionSuppressed = true;
    return "not-compacted";
  }
  run.consecutiveAutoCompactions++;
  const settings = currentCompactionSettings(core);
  const contextWindow = core.model.contextWindow;
  const tokens = projectedContextTokens(core);
  if (shouldCompact(tokens, contextWindow, settings)) {
    core.stalledCompactionId = outcome.result.entryId;
    const threshold = contextWindow - settings.reserveTokens;
    await stopRun(
      core,
      run,
      new RuntimeError(
        "CONTEXT_STILL_TOO_LARGE",
        `Compaction ${outcome.result.entryId} left about ${tokens} context tokens, still above the threshold of ${threshold} (context window ${contextWindow} - reserveTokens ${settings.reserveTokens}); the kept messages alone are too large. Not compacting again automatically: navigate, compact with a smaller compaction.keepRecentTokens, or switch to a larger model`,
        { tokens, threshold, contextWindow },
      ),
    );
    return "stopped";
  }
  return "compacted";
}

/**
 * pi's between-turns check (see packages/runtime/docs/reference.md#when-the-session-compacts): when the projected context of the current leaf is above
 * the threshold, compact before the next assistant request.
 */
export async function compactBeforeNextResponse(core: SessionCore, run: RunState): Promise<void> {
  const settings = currentCompactionSettings(core);
  if (!shouldCompact(projectedContextTokens(core), core.model.contextWindow, settings)) return;
  await runAutoCompaction(core, run, "threshold", false);
}
