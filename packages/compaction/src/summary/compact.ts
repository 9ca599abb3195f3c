import type { Model, Provider, Usage } from "@arbor/providers";
import { CompactionError } from "../compaction-error";
import { computeFileLists, type FileToolMapping, formatFileOperations } from "../files/file-operations";
import { combineUsage } from "../internal/combine-usage";
import { summarizeOffline } from "../offline/summarize-offline";
import type { CompactionPreparation } from "../prepare/prepare-compaction";
import { cacheSharingSummaryRequest } from "./cache-sharing-summary-request";
import { generateSummary, generateTurnPrefixSummary } from "./generate-summary";
import { sendSummaryRequest } from "./request-summary";
import type { SummaryModelOptions } from "./summary-model-options";
import { NO_PRIOR_HISTORY, SPLIT_TURN_SEPARATOR } from "./summary-prompts";

/** Options of {@link compact}: a model (optional) and how to behave when it fails. */
export interface CompactOptions extends Omit<SummaryModelOptions, "provider" | "model"> {
  /** Provider of `model`. Without both, the offline summarizer writes the summary. */
  provider?: Provider;
  model?: Model;
  /**
   * When the model fails (error, truncated, tool call, empty answer; not an abort), write the summary
   * with the offline summarizer instead of throwing. Default `false`.
   */
  offlineFallback?: boolean;
  /** Tool names for the offline summarizer's file activity. Default: `read` / `write` / `edit`. */
  fileToolMapping?: FileToolMapping;
}

/** What a compaction entry is made of (pi's `CompactionResult`, plus how the summary was written). */
export interface CompactionResult {
  /** The summary text, with `<read-files>` / `<modified-files>` appended. */
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  /** Combined usage of the model requests; absent for an offline summary. */
  usage?: Usage;
  /** Stored on the entry; later compactions and branch summaries inherit these lists. */
  details: { readFiles: string[]; modifiedFiles: string[] };
  /** Who wrote the summary. */
  summarizer: "model" | "offline";
  /** The model failure that the offline summary replaced (with `offlineFallback`). */
  fallbackError?: CompactionError;
}

async function summarizeWithModel(preparation: CompactionPreparation, options: SummaryModelOptions) {
  if (options.conversation !== undefined) {
    const shared = cacheSharingSummaryRequest(
      options.conversation,
      options.model,
      options.customInstructions,
      options.maxTokens,
    );
    if (shared !== undefined) return sendSummaryRequest(shared.request, shared.maxTokens, "history", options);
  }
  const { messagesToSummarize, turnPrefixMessages, previousSummary } = preparation;
  const historyOptions = previousSummary === undefined ? options : { ...options, previousSummary };
  if (!preparation.isSplitTurn || turnPrefixMessages.length === 0) {
    return generateSummary(messagesToSummarize, historyOptions);
  }
  // Sequential on purpose: a failed history request must not leave a prefix request running.
  const history =
    messagesToSummarize.length > 0 ? await generateSummary(messagesToSummarize, historyOptions) : undefined;
  const prefix = await generateTurnPrefixSummary(turnPrefixMessages, options);
  const historyText = history?.text ?? previousSummary ?? NO_PRIOR_HISTORY;
  return {
    text: `${historyText}${SPLIT_TURN_SEPARATOR}${prefix.text}`,
    usage: history ? combineUsage(history.usage, prefix.usage) : prefix.usage,
  };
}

/**
 * Writes the summary of a prepared compaction. Returns what the compaction entry needs; persists
 * nothing (append it with the store). Steps:
 * 1. with a provider and a model: with `conversation`, one cache-sharing request (the conversation, then
 *    the summary instructions; see `cacheSharingSummaryRequest`) when it fits the window; else one
 *    request for the history (the update instructions when there is a
 *    previous summary); for a split turn, then a second request for the turn's prefix, and the two are
 *    joined (`previousSummary` or a placeholder stands in for an empty history); usage is summed;
 * 2. without them, or after a model failure with `offlineFallback`, the offline summarizer writes it
 *    (from the messages to summarize, the turn prefix and the previous summary);
 * 3. the file lists from `preparation.fileOps` are appended as tags and returned as `details`.
 *
 * @throws {CompactionError} `MISSING_FIRST_KEPT_ENTRY` for a preparation without it; `SUMMARY_ABORTED`
 *   when `signal` fires (never replaced by the offline fallback); without `offlineFallback`, any model
 *   failure (`SUMMARY_FAILED`, `SUMMARY_TRUNCATED`, `SUMMARY_TOOL_CALL`, `SUMMARY_EMPTY`). A truncated
 *   or failed summary is never returned. Does not mutate `preparation`.
 */
export async function compact(
  preparation: CompactionPreparation,
  options: CompactOptions = {},
): Promise<CompactionResult> {
  if (!preparation.firstKeptEntryId) {
    throw new CompactionError(
      "MISSING_FIRST_KEPT_ENTRY",
      "Compaction failed: the preparation has no firstKeptEntryId (the session may need migrating to version 3)",
      { stage: "prepare" },
    );
  }
  if (options.signal?.aborted) {
    throw new CompactionError("SUMMARY_ABORTED", "Compaction summary failed: aborted before it started", {
      stage: "history",
    });
  }
  const { provider, model, offlineFallback, fileToolMapping, ...rest } = options;
  let text: string;
  let usage: Usage | undefined;
  let summarizer: CompactionResult["summarizer"] = "offline";
  let fallbackError: CompactionError | undefined;
  if (provider && model) {
    try {
      const generated = await summarizeWithModel(preparation, { ...rest, provider, model });
      text = generated.text;
      usage = generated.usage;
      summarizer = "model";
    } catch (error) {
      const canFallBack =
        offlineFallback && error instanceof CompactionError && error.code !== "SUMMARY_ABORTED";
      if (!canFallBack) throw error;
      fallbackError = error;
      text = summarizeOffline(preparation, offlineOptions(rest.customInstructions, fileToolMapping));
    }
  } else {
    text = summarizeOffline(preparation, offlineOptions(rest.customInstructions, fileToolMapping));
  }
  const { readFiles, modifiedFiles } = computeFileLists(preparation.fileOps);
  const result: CompactionResult = {
    summary: text + formatFileOperations(readFiles, modifiedFiles),
    firstKeptEntryId: preparation.firstKeptEntryId,
    tokensBefore: preparation.tokensBefore,
    details: { readFiles, modifiedFiles },
    summarizer,
  };
  if (usage) result.usage = usage;
  if (fallbackError) result.fallbackError = fallbackError;
  return result;
}

function offlineOptions(
  customInstructions: string | undefined,
  fileToolMapping: FileToolMapping | undefined,
) {
  return {
    ...(customInstructions ? { customInstructions } : {}),
    ...(fileToolMapping ? { fileToolMapping } : {}),
  };
}
