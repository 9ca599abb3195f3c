import {
  calculateContextTokens,
  estimateContextTokens,
  estimateProjectedContextTokens,
  shouldCompact,
} from "@arbor/compaction";
import { type AssistantMessage, isContextOverflow } from "@arbor/providers";
import { type CompactionEntry, getLatestCompactionEntry, type SessionEntry } from "@arbor/session-store";
import { findMessageEntryId } from "../internal/find-message-entry-id";
import type { RunState } from "../internal/run-state";
import { currentCompactionSettings, notify, type SessionCore } from "../internal/session-core";
import { RuntimeError } from "../runtime-error";
import { runAutoCompaction, stopRun } from "./auto-compaction";
import { omitFailedAttempt } from "./omit-failed-attempt";

/** What the caller should do after {@link checkResponse}. */
export interface ResponseCheck {
  /** Send the request again (one compact-and-retry after an overflow or a truncated response). */
  retry: boolean;
}

const NO_RETRY: ResponseCheck = { retry: false };

/**
 * pi's `_checkCompaction` (see packages/runtime/docs/reference.md#when-the-session-compacts), run after a loop run ends (`prePrompt: false`) and before a new
 * prompt (`prePrompt: true`, which also considers aborted responses and never retries):
 * 1. nothing when automatic compaction is disabled, or the response predates the latest compaction;
 * 2. a context overflow (the provider's error, or usage above the window) or a recoverable `length`
 *    stop of the current model: with a completed response, compact without retry; otherwise, once
 *    per failure streak, omit the failed attempt with `context_edit(…, null)` entries, compact, and
 *    ask for one retry; a second failure in the streak fails the recovery
 *    (`OVERFLOW_RECOVERY_FAILED`, no compaction);
 * 3. else the threshold check on the response's usage (or an estimate), compacting when above.
 */
export async function checkResponse(
  core: SessionCore,
  run: RunState,
  message: AssistantMessage,
  options: { prePrompt: boolean },
): Promise<ResponseCheck> {
  const settings = currentCompactionSettings(core);
  if (!settings.enabled || run.error !== undefined) return NO_RETRY;
  if (!options.prePrompt && message.stopReason === "aborted") return NO_RETRY;
  const model = core.model;
  const sameModel = message.provider === model.provider && message.model === model.id;
  const contextWindow = model.contextWindow;
  const branch = core.store.getBranch();
  const latestCompaction = getLatestCompactionEntry(branch);
  const entryId = findMessageEntryId(core, message);
  const position = branchPosition(branch, entryId);
  if (predatesCompaction(branch, latestCompaction, position, message.timestamp)) return NO_RETRY;

  const projection = core.store.getProjection();
  // A response in the session is seen while it is on the branch and no edit omitted it; one that is
  // not in the session (never written) is taken as it is.
  const isProjected =
    entryId === undefined ||
    projection.entries.some((entry) => entry.sourceEntry.id === entryId && entry.messages.length > 0);
  const editedSince =
    position >= 0 && branch.slice(position + 1).some((entry) => entry.type === "context_edit");
  // An overflow error stays one; usage above the window means one only while it still describes the
  // context (nothing edited since the response).
  const contextOverflow =
    isContextOverflow(message, contextWindow) && (message.stopReason === "error" || !editedSince);
  // A model without maxTokens (0) never qualifies: output is never below 0.
  const truncated = message.stopReason === "length" && message.usage.output < model.maxTokens;

  if (sameModel && isProjected && (contextOverflow || truncated)) {
    const willRetry = message.stopReason !== "stop";
    if (!willRetry) {
      await runAutoCompaction(core, run, "overflow", false);
      return NO_RETRY;
    }
    if (core.overflowRecoveryAttempted) {
      await failRecovery(core, run, contextOverflow, !options.prePrompt);
      return NO_RETRY;
    }
    core.overflowRecoveryAttempted = true;
    omitFailedAttempt(core, message);
    const outcome = await runAutoCompaction(core, run, "overflow", true);
    return { retry: outcome === "compacted" && !options.prePrompt };
  }

  const hasEdits = projection.entries.some((entry) => entry.sourceEntry.type === "context_edit");
  const direct = calculateContextTokens(message.usage);
  let contextTokens: number;
  if (hasEdits) {
    contextTokens = estimateProjectedContextTokens(projection, branch, {
      tokenCounter: core.tokenCounter,
    }).tokens;
  } else if (message.stopReason === "error" || direct === 0) {
    const estimate = estimateContextTokens(projection.messages, { tokenCounter: core.tokenCounter });
    const source =
      estimate.lastUsageIndex === null ? undefined : projection.messages[estimate.lastUsageIndex];
    if (
      source?.role === "assistant" &&
      predatesCompaction(
        branch,
        latestCompaction,
        branchPosition(branch, findMessageEntryId(core, source)),
        source.timestamp,
      )
    ) {
      return NO_RETRY;
    }
    contextTokens = estimate.tokens;
  } else {
    contextTokens = direct;
  }
  if (shouldCompact(contextTokens, contextWindow, settings))
    await runAutoCompaction(core, run, "threshold", false);
  return NO_RETRY;
}

/** Index of the entry `entryId` on the branch; -1 when it is not there (or `undefined`). */
function branchPosition(branch: readonly SessionEntry[], entryId: string | undefined): number {
  return branch.findIndex((entry) => entry.id === entryId);
}

/**
 * Whether a response is older than the branch's latest compaction (its usage or error describes a
 * context that no longer exists). Decided by its position on the branch when it is there, else by
 * timestamp as pi does (a compaction in the same millisecond counts as newer).
 */
function predatesCompaction(
  branch: readonly SessionEntry[],
  compaction: CompactionEntry | null,
  position: number,
  timestamp: number,
): boolean {
  if (compaction === null) return false;
  if (position >= 0) return position < branch.indexOf(compaction);
  return timestamp <= Date.parse(compaction.timestamp);
}

/**
 * The failure streak outlived its one compact-and-retry: report it like a failed compaction and, after
 * a run (not before a new prompt, which still goes out), stop the prompt with `OVERFLOW_RECOVERY_FAILED`.
 */
async function failRecovery(
  core: SessionCore,
  run: RunState,
  overflow: boolean,
  stop: boolean,
): Promise<void> {
  const errorMessage = overflow
    ? "The context still overflows after one compaction and retry; shorten the context (navigate, compact with a smaller keepRecentTokens) or switch to a model with a larger context window"
    : "The response was cut short again after one compaction and retry; not retrying";
  await notify(core, {
    type: "compaction_end",
    reason: "overflow",
    result: undefined,
    aborted: false,
    willRetry: false,
    errorMessage,
  });
  await notify(core, {
    type: "session_compact_failed",
    reason: "overflow",
    errorMessage,
    aborted: false,
    willRetry: false,
    fromExtension: false,
  });
  if (stop) await stopRun(core, run, new RuntimeError("OVERFLOW_RECOVERY_FAILED", errorMessage));
}
