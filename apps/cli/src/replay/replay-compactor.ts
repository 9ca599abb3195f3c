import { type Compactor, cacheSharingSummaryRequest, createDefaultCompactor } from "@arbor/compaction";
import type { Model } from "@arbor/providers";
import type { CacheAccount } from "./prompt-cache-model";
import type { ReplayProvider } from "./replay-provider";

/** A summary the replay's offline summarizer wrote, with what its request would have cost. */
export interface ReplaySummaryRecord {
  /** The summary's first kept entry: matches the compaction entry it became. */
  firstKeptEntryId: string;
  /**
   * What the summarizer wrote (the model's output in a real session); a policy may append more to
   * the entry (cache-aware's user prompts section), which no model writes.
   */
  text: string;
  /** The input split of a cache-sharing summary request; absent for a fresh one (priced by the caller). */
  account?: CacheAccount & { contextTokens: number };
}

/** Options of {@link createReplayCompactor}. */
export interface ReplayCompactorOptions {
  /** The session's model: the one a cache-sharing summary request goes to. */
  model: Model;
  /** The replay provider whose cache the requests share. */
  provider: ReplayProvider;
  /** Called for each summary, when it is written (in time order with the requests). */
  onSummary(record: ReplaySummaryRecord): void;
}

/**
 * The replay's offline summarizer: every summary is the offline summarizer's (deterministic, the
 * same text the runtime writes without a summary model). When the call carries a `conversation`
 * (a policy asking for a cache-sharing summary) that fits the window, the request a model would have
 * been sent (`cacheSharingSummaryRequest`, the same function the model path uses) is accounted by
 * `provider` against the same prompt cache as the conversation's requests, at the time of the latest
 * answer; every summary is reported through `onSummary` (fresh ones are priced by the caller).
 * Branch summaries are the offline ones. Rejects only as `compact` does.
 */
export function createReplayCompactor(options: ReplayCompactorOptions): Compactor {
  const offline = createDefaultCompactor();
  return {
    name: "replay(offline)",
    async compact(preparation, call = {}) {
      const { conversation, ...rest } = call;
      const result = await offline.compact(preparation, rest);
      const shared =
        conversation === undefined
          ? undefined
          : cacheSharingSummaryRequest(conversation, options.model, rest.customInstructions);
      options.onSummary({
        firstKeptEntryId: result.firstKeptEntryId,
        text: result.summary,
        ...(shared === undefined ? {} : { account: options.provider.accountUnanswered(shared.request) }),
      });
      return result;
    },
    summarizeBranch: (entries, call) => offline.summarizeBranch(entries, call),
  };
}
