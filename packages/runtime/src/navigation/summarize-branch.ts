import { type BranchSummaryResult, CompactionError, generateBranchSummary } from "@arbor/compaction";
import type { Usage } from "@arbor/providers";
import type { SessionEntry } from "@arbor/session-store";
import { fallbackNotice } from "../compaction/summarize-with-fallback";
import { routingSessionId } from "../internal/routing-session-id";
import { notify, type SessionCore } from "../internal/session-core";
import { RuntimeError } from "../runtime-error";
import { fitBranchSummaryReserve } from "../settings/fit-compaction-settings";

/** A branch summary ready to be written, or the sign that it was aborted. */
export type BranchSummaryOutcome =
  | { aborted: true }
  | {
      aborted: false;
      summary: string;
      details: { readFiles: string[]; modifiedFiles: string[] };
      usage?: Usage;
    };

/**
 * Summarizes the branch being left: with `compaction.compactor` when set, else with the summary model
 * (input budget: its context window minus `branchSummary.reserveTokens`), falling back to the offline
 * summarizer like compaction does (`compaction_fallback` with operation `branch_summary`).
 *
 * @throws RuntimeError `BRANCH_SUMMARY_FAILED` when the summary fails and there is no fallback.
 */
export async function summarizeBranch(
  core: SessionCore,
  entries: SessionEntry[],
  options: { customInstructions?: string; replaceInstructions?: boolean; signal: AbortSignal },
): Promise<BranchSummaryOutcome> {
  const compactor = core.options.compaction?.compactor;
  let result: BranchSummaryResult;
  try {
    result = compactor
      ? await compactor.summarizeBranch(entries, options)
      : await generateBranchSummary(entries, {
          ...options,
          ...(core.summaryProvider === undefined
            ? {}
            : { provider: core.summaryProvider, model: core.options.compaction?.model ?? core.model }),
          sessionId: routingSessionId(core, "summary"),
          ...(core.thinkingLevel === undefined ? {} : { reasoning: core.thinkingLevel }),
          contextWindow: core.model.contextWindow,
          reserveTokens: fitBranchSummaryReserve(
            core.settings.branchSummary?.reserveTokens ?? 16384,
            (core.options.compaction?.model ?? core.model).contextWindow,
          ),
          offlineFallback: core.settings.compaction?.offlineFallback !== false,
          tokenCounter: core.tokenCounter,
        });
  } catch (error) {
    if (options.signal.aborted || (CompactionError.isInstance(error) && error.code === "SUMMARY_ABORTED")) {
      return { aborted: true };
    }
    const message = error instanceof Error ? error.message : String(error);
    throw new RuntimeError("BRANCH_SUMMARY_FAILED", `Branch summary failed: ${message}`, { cause: error });
  }
  const notice = fallbackNotice(result, core.summaryProvider === undefined && compactor === undefined);
  if (notice !== undefined && result.summarizer === "offline") {
    await notify(core, {
      type: "compaction_fallback",
      operation: "branch_summary",
      reason: undefined,
      ...notice,
    });
  }
  return {
    aborted: false,
    summary: result.summary,
    details: { readFiles: result.readFiles, modifiedFiles: result.modifiedFiles },
    ...(result.usage === undefined ? {} : { usage: result.usage }),
  };
}
