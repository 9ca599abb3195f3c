import type { Model, Provider, ReasoningLevel, RetryOptions } from "@arbor/providers";
import type { SessionEntry } from "@arbor/session-store";
import { type BranchSummaryResult, generateBranchSummary } from "./branch/generate-branch-summary";
import type { FileToolMapping } from "./files/file-operations";
import type { CompactionPreparation } from "./prepare/prepare-compaction";
import type { SummaryConversation } from "./summary/cache-sharing-summary-request";
import { type CompactionResult, compact } from "./summary/compact";
import type { TokenCounter } from "./tokens/token-counter";

/** Per-call inputs of a {@link Compactor}. */
export interface CompactorCallOptions {
  /** Cancels the work; the compactor then rejects with a `CompactionError` `SUMMARY_ABORTED`. */
  signal?: AbortSignal;
  /** Extra focus from the user (for example `/compact focus on the API`). */
  customInstructions?: string;
  /**
   * The agent's conversation for a cache-sharing summary request (see `SummaryModelOptions.conversation`);
   * the runtime passes it only when the summary model is the session's. A compactor may ignore it.
   */
  conversation?: SummaryConversation;
}

/** Per-call inputs of {@link Compactor.summarizeBranch}. */
export interface BranchCompactorCallOptions extends CompactorCallOptions {
  /** Use `customInstructions` instead of the default instructions. */
  replaceInstructions?: boolean;
}

/**
 * Writes compaction and branch summaries. Implement it to plug your own summarizer into the runtime
 * (another model, a different format, a deterministic template); {@link createDefaultCompactor} is the
 * built-in one.
 *
 * Contract: both methods resolve with a result or reject with a `CompactionError` (a non-Arbor error is
 * treated as `SUMMARY_FAILED` by the runtime). They must honour `signal` (reject with `SUMMARY_ABORTED`),
 * must not mutate their inputs, and must never persist anything: the caller appends the entry. A result's
 * `details` should keep the `{ readFiles, modifiedFiles }` shape so that later summaries inherit the lists.
 */
export interface Compactor {
  /** Name for logs, for example `"default"`. */
  readonly name: string;
  /** Summarizes a prepared compaction (see `prepareCompaction`). */
  compact(preparation: CompactionPreparation, options?: CompactorCallOptions): Promise<CompactionResult>;
  /** Summarizes the entries of a branch being left (see `collectEntriesForBranchSummary`). */
  summarizeBranch(
    entries: readonly SessionEntry[],
    options?: BranchCompactorCallOptions,
  ): Promise<BranchSummaryResult>;
}

/** Options of {@link createDefaultCompactor}. */
export interface DefaultCompactorOptions {
  /** Provider and model that write summaries. Without them every summary is written offline. */
  provider?: Provider;
  model?: Model;
  /** Thinking level for summaries (sent only to reasoning models). */
  reasoning?: ReasoningLevel;
  /** Fall back to the offline summarizer when the model fails (not on abort). Default `true`. */
  offlineFallback?: boolean;
  /** Input budget reserve of branch summaries (`branchSummary.reserveTokens`). Default 16384. */
  branchReserveTokens?: number;
  /** Output cap of summary requests (default: fitted to the model's window). */
  maxTokens?: number;
  /** Retries of summary requests that fail before any content arrived. */
  retry?: RetryOptions;
  /** Extra HTTP headers of summary requests. */
  headers?: Record<string, string>;
  /** API key for summary requests (never logged). */
  apiKey?: string;
  /** Counter for the branch-summary input budget. Default: chars/4. */
  tokenCounter?: TokenCounter;
  /** Tool names tracked as file operations by the offline summarizer and branch summaries. */
  fileToolMapping?: FileToolMapping;
}

/**
 * The built-in {@link Compactor}: {@link compact} and {@link generateBranchSummary} with the given model,
 * falling back to the offline summarizer when the model fails (so a session over its limit never gets
 * stuck), and offline only when no model is configured.
 */
export function createDefaultCompactor(options: DefaultCompactorOptions = {}): Compactor {
  const { offlineFallback = true, branchReserveTokens = 16384, tokenCounter, ...shared } = options;
  return {
    name:
      options.provider && options.model
        ? `default(${options.model.provider}/${options.model.id})`
        : "default(offline)",
    compact: (preparation, call = {}) => compact(preparation, { ...shared, ...call, offlineFallback }),
    summarizeBranch: (entries, call = {}) =>
      generateBranchSummary(entries, {
        ...shared,
        ...call,
        offlineFallback,
        reserveTokens: branchReserveTokens,
        ...(tokenCounter ? { tokenCounter } : {}),
      }),
  };
}
