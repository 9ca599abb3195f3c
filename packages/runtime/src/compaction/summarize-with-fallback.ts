import {
  type CompactionPreparation,
  compact,
  type SummaryConversation,
  type CompactionResult as SummaryResult,
} from "@arbor/compaction";
import type { Usage } from "@arbor/providers";
import type { CompactionReason, CompactionSummarizer } from "../events/session-events";
import { routingSessionId } from "../internal/routing-session-id";
import { notify, type SessionCore } from "../internal/session-core";

/** A summary ready to be stored. */
export interface CompactionSummaryParts {
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details: { readFiles: string[]; modifiedFiles: string[] };
  usage?: Usage;
  summarizer: CompactionSummarizer;
}

/** Why the offline summarizer wrote a summary: for the `compaction_fallback` event. */
export function fallbackNotice(
  result: { fallbackError?: { message: string; code: string } },
  offlineOnly: boolean,
) {
  if (result.fallbackError !== undefined) {
    return { errorMessage: result.fallbackError.message, errorCode: result.fallbackError.code };
  }
  return offlineOnly
    ? { errorMessage: "no summary provider is configured", errorCode: undefined }
    : undefined;
}

/**
 * Writes the summary of a prepared compaction:
 * - with `compaction.compactor`, that compactor does it (its failures are the compaction's);
 * - else the summary model (`compaction.model` / `compaction.provider`, default: the session's)
 *   writes it; when that fails for any reason but an abort and `settings.compaction.offlineFallback`
 *   is not `false`, the offline summarizer writes it instead; with `compaction.provider: null` it
 *   always does. Either way a `compaction_fallback` event says so, before the entry is written.
 * - `input.conversation` (a cache-sharing summary request, see `SummaryConversation`) is passed on
 *   only when the summary model is the session's model (same provider and id): another model has no
 *   cache entry for the conversation and would pay to write it.
 * - the summary requests carry the session's id (`routingSessionId`) when they go to the session's
 *   provider, so that a cache-sharing request reaches the prompt cache the conversation used.
 *
 * @throws the summary failure (a `CompactionError`) when there is no fallback, or on abort.
 */
export async function summarizeWithFallback(
  core: SessionCore,
  preparation: CompactionPreparation,
  input: {
    reason: CompactionReason;
    customInstructions?: string;
    signal: AbortSignal;
    conversation?: SummaryConversation;
  },
): Promise<CompactionSummaryParts> {
  const summaryModel = core.options.compaction?.model ?? core.model;
  // Only the model the conversation was sent to has it in its prompt cache.
  const shares =
    input.conversation !== undefined &&
    summaryModel.provider === core.model.provider &&
    summaryModel.id === core.model.id;
  const call = {
    signal: input.signal,
    ...(input.customInstructions === undefined ? {} : { customInstructions: input.customInstructions }),
    ...(shares ? { conversation: input.conversation } : {}),
  };
  const compactor = core.options.compaction?.compactor;
  const offlineOnly = core.summaryProvider === undefined;
  let result: SummaryResult;
  if (compactor !== undefined) {
    result = await compactor.compact(preparation, call);
  } else {
    result = await compact(preparation, {
      ...call,
      // Without a summary provider `compact` writes the offline summary (the model is not used then).
      provider: core.summaryProvider,
      model: summaryModel,
      sessionId: routingSessionId(core, "summary"),
      reasoning: core.thinkingLevel,
      offlineFallback: core.settings.compaction?.offlineFallback !== false,
    });
  }
  const notice = fallbackNotice(result, offlineOnly && compactor === undefined);
  if (notice !== undefined) {
    await notify(core, {
      type: "compaction_fallback",
      operation: "compaction",
      reason: input.reason,
      ...notice,
    });
  }
  return {
    summary: result.summary,
    firstKeptEntryId: result.firstKeptEntryId,
    tokensBefore: result.tokensBefore,
    details: result.details,
    usage: result.usage,
    summarizer: result.summarizer,
  };
}
