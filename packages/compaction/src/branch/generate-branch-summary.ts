import type { Model, Provider, Usage } from "@arbor/providers";
import type { SessionEntry } from "@arbor/session-store";
import { CompactionError } from "../compaction-error";
import { computeFileLists, type FileToolMapping, formatFileOperations } from "../files/file-operations";
import { summarizeOffline } from "../offline/summarize-offline";
import { conversationBlock, withFocus } from "../summary/generate-summary";
import { requestSummary } from "../summary/request-summary";
import type { SummaryModelOptions } from "../summary/summary-model-options";
import { BRANCH_SUMMARY_PREAMBLE, BRANCH_SUMMARY_PROMPT } from "../summary/summary-prompts";
import type { TokenCounter } from "../tokens/token-counter";
import { prepareBranchEntries } from "./prepare-branch-entries";

/** Options of {@link generateBranchSummary}. */
export interface BranchSummaryOptions extends Omit<SummaryModelOptions, "provider" | "model"> {
  /** Provider of `model`. Without both, the offline summarizer writes the summary. */
  provider?: Provider;
  model?: Model;
  /** Use `customInstructions` instead of the default instructions (not in addition to them). */
  replaceInstructions?: boolean;
  /** Tokens kept free: the input budget is `contextWindow − reserveTokens`. Default 16384. */
  reserveTokens?: number;
  /** Context window when there is no model. Default 128000 (pi's fallback). */
  contextWindow?: number;
  /** When the model fails (not an abort), write the summary offline instead of throwing. Default `false`. */
  offlineFallback?: boolean;
  /** Counter for the input budget. Default: pi's chars/4 estimate. */
  tokenCounter?: TokenCounter;
  /** Tool names tracked as file operations. Default: `read` / `write` / `edit`. */
  fileToolMapping?: FileToolMapping;
}

/** A branch summary ready for a `branch_summary` entry (`details` = `{ readFiles, modifiedFiles }`). */
export interface BranchSummaryResult {
  /** Preamble, summary text and file-list tags. */
  summary: string;
  /** Usage of the model request; absent offline. */
  usage?: Usage;
  /** Files only read on the branch (and in earlier branch summaries it contained), sorted. */
  readFiles: string[];
  /** Files modified there, sorted. */
  modifiedFiles: string[];
  /** Who wrote it; `"none"` when the branch had nothing to summarize. */
  summarizer: "model" | "offline" | "none";
  /** The model failure that the offline summary replaced (with `offlineFallback`). */
  fallbackError?: CompactionError;
}

/** Text returned when the branch has no message to summarize (pi's wording of this case). */
export const EMPTY_BRANCH_SUMMARY = "No content to summarize";

/**
 * Summarizes the entries of an abandoned branch (from `collectEntriesForBranchSummary`):
 * 1. `prepareBranchEntries` with the budget `(model.contextWindow || contextWindow || 128000) − reserveTokens`
 *    (newest first; tool results skipped; earlier branch summaries' file lists inherited);
 * 2. no message left: `"No content to summarize"`, no file lists;
 * 3. one model request with the branch instructions (`customInstructions` appended, or used alone with
 *    `replaceInstructions`), or the offline summarizer without a model (or after a model failure with
 *    `offlineFallback`);
 * 4. the summary is a preamble saying the user left that branch, the text, then the file-list tags.
 *
 * Beyond pi, failures are thrown as typed errors instead of being returned as `{ error }` / `{ aborted }`.
 *
 * @throws {CompactionError} stage `branch`: `SUMMARY_ABORTED`, and without `offlineFallback`
 *   `SUMMARY_FAILED`, `SUMMARY_TRUNCATED`, `SUMMARY_TOOL_CALL`, `SUMMARY_EMPTY`. Never mutates `entries`.
 */
export async function generateBranchSummary(
  entries: readonly SessionEntry[],
  options: BranchSummaryOptions = {},
): Promise<BranchSummaryResult> {
  const {
    provider,
    model,
    replaceInstructions,
    reserveTokens = 16384,
    contextWindow,
    offlineFallback,
    tokenCounter,
    fileToolMapping,
    ...rest
  } = options;
  if (rest.signal?.aborted)
    throw new CompactionError("SUMMARY_ABORTED", "Branch summary failed: aborted", { stage: "branch" });
  const budget = (model?.contextWindow || contextWindow || 128000) - reserveTokens;
  const prepared = prepareBranchEntries(entries, budget, {
    ...(tokenCounter ? { tokenCounter } : {}),
    ...(fileToolMapping ? { fileToolMapping } : {}),
  });
  if (prepared.messages.length === 0) {
    return { summary: EMPTY_BRANCH_SUMMARY, readFiles: [], modifiedFiles: [], summarizer: "none" };
  }
  const offline = () =>
    summarizeOffline(prepared.messages, {
      ...(rest.customInstructions ? { customInstructions: rest.customInstructions } : {}),
      ...(fileToolMapping ? { fileToolMapping } : {}),
    });
  let text: string;
  let usage: Usage | undefined;
  let summarizer: BranchSummaryResult["summarizer"] = "offline";
  let fallbackError: CompactionError | undefined;
  if (provider && model) {
    const modelOptions: SummaryModelOptions = { ...rest, provider, model };
    const instructions =
      replaceInstructions && rest.customInstructions
        ? rest.customInstructions
        : withFocus(BRANCH_SUMMARY_PROMPT, rest.customInstructions);
    try {
      const generated = await requestSummary(
        conversationBlock(prepared.messages, modelOptions, instructions.length) + instructions,
        "branch",
        modelOptions,
      );
      text = generated.text;
      usage = generated.usage;
      summarizer = "model";
    } catch (error) {
      if (!(offlineFallback && error instanceof CompactionError && error.code !== "SUMMARY_ABORTED"))
        throw error;
      fallbackError = error;
      text = offline();
    }
  } else {
    text = offline();
  }
  const { readFiles, modifiedFiles } = computeFileLists(prepared.fileOps);
  const result: BranchSummaryResult = {
    summary: BRANCH_SUMMARY_PREAMBLE + text + formatFileOperations(readFiles, modifiedFiles),
    readFiles,
    modifiedFiles,
    summarizer,
  };
  if (usage) result.usage = usage;
  if (fallbackError) result.fallbackError = fallbackError;
  return result;
}
