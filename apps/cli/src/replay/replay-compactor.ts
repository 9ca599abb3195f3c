import { type Compactor, cacheSharingSummaryRequest, createDefaultCompactor } from "@arbor/compaction";
import type { Model } from "@arbor/providers";
import type { CacheAccount } from "./prompt-cache-model";
import type { ReplayProvider } from "./replay-provider";

/** The input split of a cache-sharing summary the offline summarizer wrote (priced as if sent). */
export interface SharedSummaryAccount {
  /** The summary's first kept entry: matches the compaction entry it became. */
  firstKeptEntryId: string;
  account: CacheAccount & { contextTokens: number };
}

/** Options of {@link createReplayCompactor}. */
export interface ReplayCompactorOptions {
  /** The session's model: the one a cache-sharing summary request goes to. */
  model: Model;
  /** The replay provider whose cache the requests share. */
  provider: ReplayProvider;
  /** Called for each cache-sharing summary, when it is written (in time order with the requests). */
  onShared(account: SharedSummaryAccount): void;
}

/**
 * The replay's offline summarizer: every summary is the offline summarizer's (deterministic, the
 * same text the runtime writes without a summary model). When the call carries a `conversation`
 * (a policy asking for a cache-sharing summary) that fits the window, the request a model would have
 * been sent (`cacheSharingSummaryRequest`, the same function the model path uses) is accounted by
 * `provider` against the same prompt cache as the conversation's requests, at the time of the latest
 * answer, and reported through `onShared`; other summaries are priced by the caller as fresh requests.
 * Branch summaries are the offline ones. Rejects only as `compact` does.
 */
export function createReplayCompactor(options: ReplayCompactorOptions): Compactor {
  const offline = createDefaultCompactor();
  return {
    name: "replay(offline)",
    async compact(preparation, call = {}) {
      const { conversation, ...rest } = call;
      const result = await offline.compact(preparation, rest);
      if (conversation !== undefined) {
        const shared = cacheSharingSummaryRequest(conversation, options.model, rest.customInstructions);
        if (shared !== undefined)
          options.onShared({
            firstKeptEntryId: result.firstKeptEntryId,
            account: options.provider.accountUnanswered(shared.request),
          });
      }
      return result;
    },
    summarizeBranch: (entries, call) => offline.summarizeBranch(entries, call),
  };
}
