import { prepareCompaction } from "@arbor/compaction";
import type { Usage } from "@arbor/providers";
import type { CustomCompaction } from "../events/runtime-hooks";
import type {
  CompactionReason,
  CompactionSummarizer,
  SessionCompactionResult,
} from "../events/session-events";
import { currentCompactionSettings, notify, type SessionCore } from "../internal/session-core";
import { RuntimeError } from "../runtime-error";
import { summarizeWithFallback } from "./summarize-with-fallback";

/** Input of {@link runCompaction}. */
export interface RunCompactionInput {
  reason: CompactionReason;
  willRetry: boolean;
  customInstructions?: string;
  signal: AbortSignal;
}

/** What {@link runCompaction} did. */
export type CompactionOutcome =
  | { status: "compacted"; result: SessionCompactionResult }
  /** No preparation: nothing was emitted, nothing written. */
  | { status: "skipped"; error: RuntimeError }
  /** Events were emitted; nothing was written. */
  | { status: "failed"; error: RuntimeError; aborted: boolean };

interface SummaryParts {
  summary: string;
  firstKeptEntryId: string | null;
  tokensBefore: number;
  details?: unknown;
  usage?: Usage;
  summarizer: CompactionSummarizer;
}

function skippedReason(core: SessionCore): RuntimeError {
  const branch = core.store.getBranch();
  return branch.at(-1)?.type === "compaction"
    ? new RuntimeError("ALREADY_COMPACTED", "Already compacted: the branch ends with a compaction")
    : new RuntimeError("NOTHING_TO_COMPACT", "Nothing to compact (session too small)");
}

/**
 * The compaction pipeline shared by manual, threshold and overflow compaction (see packages/runtime/docs/reference.md#when-the-session-compacts):
 * 1. `prepareCompaction` on the current branch; without a preparation it returns `skipped` and emits
 *    nothing;
 * 2. `compaction_start`;
 * 3. `session_before_compact` (interceptor): `{ cancel: true }` cancels, `{ compaction }` replaces
 *    the summary (stored with `fromHook: true`, `tokensBefore` as given);
 * 4. otherwise the LLM summary, falling back to the offline summarizer (`compaction_fallback`);
 * 5. the `compaction` entry is appended, then `session_compact`, then `compaction_end`.
 *
 * On failure or abort nothing is written: `compaction_end` (with `errorMessage`, or `aborted`) then
 * `session_compact_failed`. Never throws for summary failures; the caller holds the session lock.
 */
export async function runCompaction(
  core: SessionCore,
  input: RunCompactionInput,
): Promise<CompactionOutcome> {
  const { reason, signal } = input;
  const branchEntries = core.store.getBranch();
  const preparation = prepareCompaction(branchEntries, currentCompactionSettings(core), {
    tokenCounter: core.tokenCounter,
  });
  if (preparation === undefined) return { status: "skipped", error: skippedReason(core) };
  await notify(core, { type: "compaction_start", reason, willRetry: input.willRetry });
  let fromExtension = false;
  let cancelledByExtension = false;
  try {
    signal.throwIfAborted();
    const hook = await core.bus.intercept(
      "session_before_compact",
      {
        type: "session_before_compact",
        preparation,
        branchEntries,
        customInstructions: input.customInstructions,
        reason,
        willRetry: input.willRetry,
        signal,
      },
      { signal },
    );
    if (hook.cancelled) {
      cancelledByExtension = true;
      throw new RuntimeError(
        "COMPACTION_CANCELLED",
        `Compaction cancelled by extension ${hook.cancelledBy ?? "(unnamed)"}`,
      );
    }
    signal.throwIfAborted();
    const custom = hook.result?.compaction;
    fromExtension = custom !== undefined;
    const parts = custom ? fromCustom(custom) : await summarizeWithFallback(core, preparation, input);
    signal.throwIfAborted();
    const entry = core.store.appendCompaction({
      summary: parts.summary,
      firstKeptEntryId: parts.firstKeptEntryId || null,
      tokensBefore: parts.tokensBefore,
      details: parts.details,
      usage: parts.usage,
      fromHook: fromExtension,
    });
    const result: SessionCompactionResult = {
      entryId: entry.id,
      summary: entry.summary,
      firstKeptEntryId: entry.firstKeptEntryId,
      tokensBefore: entry.tokensBefore,
      estimatedTokensAfter: estimateAfter(core),
      usage: parts.usage,
      details: parts.details,
      summarizer: parts.summarizer,
    };
    await notify(core, {
      type: "session_compact",
      compactionEntry: entry,
      fromExtension,
      reason,
      willRetry: input.willRetry,
    });
    await notify(core, {
      type: "compaction_end",
      reason,
      result,
      aborted: false,
      willRetry: input.willRetry,
    });
    return { status: "compacted", result };
  } catch (error) {
    const aborted = signal.aborted || cancelledByExtension;
    const message = error instanceof Error ? error.message : String(error);
    const errorMessage = aborted ? undefined : `${failurePrefix(reason)}: ${message}`;
    await notify(core, {
      type: "compaction_end",
      reason,
      result: undefined,
      aborted,
      willRetry: false,
      ...(errorMessage === undefined ? {} : { errorMessage }),
    });
    await notify(core, {
      type: "session_compact_failed",
      reason,
      ...(errorMessage === undefined ? {} : { errorMessage }),
      aborted,
      // The seed's meaning: whether the aborted turn would have been retried after this compaction.
      willRetry: input.willRetry,
      fromExtension,
    });
    const runtimeError =
      error instanceof RuntimeError
        ? error
        : new RuntimeError(
            aborted ? "COMPACTION_CANCELLED" : "COMPACTION_FAILED",
            aborted ? "Compaction aborted" : (errorMessage ?? message),
            { cause: error },
          );
    return { status: "failed", error: runtimeError, aborted };
  }
}

function fromCustom(custom: CustomCompaction): SummaryParts {
  return { ...custom, summarizer: "extension" };
}

function failurePrefix(reason: CompactionReason): string {
  if (reason === "overflow") return "Context overflow recovery failed";
  if (reason === "threshold") return "Auto-compaction failed";
  return "Compaction failed";
}

/** pi's `estimatedTokensAfter`: the sum of the projected messages' estimates. */
function estimateAfter(core: SessionCore): number {
  let total = 0;
  for (const message of core.store.getProjection().messages) total += core.tokenCounter.countMessage(message);
  return total;
}
