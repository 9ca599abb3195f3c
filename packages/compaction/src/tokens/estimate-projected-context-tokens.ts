import type { SessionEntry, SessionProjection } from "@arbor/session-store";
import { estimateProjectionView } from "../internal/estimate-projection-view";
import { countMessagesCached } from "../internal/message-token-cache";
import type { ContextTokenEstimate, EstimateOptions } from "./estimate-context-tokens";
import { defaultTokenCounter } from "./token-counter";

/**
 * Context size of a projection without trusting usage that a later edit or compaction made stale
 * (pi 1.6.0's `estimateProjectedContextTokens`):
 * 1. the usage-aware estimate of `projection.messages` (see `estimateContextTokens`);
 * 2. it is returned only when the entry holding that assistant lies, in `branchEntries`, strictly after
 *    the latest `context_edit` or `compaction` entry of the branch;
 * 3. otherwise a pure estimate: the replayed system message (every system message of the projection
 *    folded into one) counted once, plus every non-system message.
 *
 * `branchEntries` is the root→leaf branch the projection was built from. Pure: never mutates; token
 * counts are cached per message object.
 */
export function estimateProjectedContextTokens(
  projection: Pick<SessionProjection, "entries">,
  branchEntries: readonly SessionEntry[],
  options: EstimateOptions = {},
): ContextTokenEstimate {
  const counter = options.tokenCounter ?? defaultTokenCounter;
  const entries = projection.entries;
  let totalMessages = 0;
  for (const entry of entries) totalMessages += entry.messages.length;
  const result = estimateProjectionView(
    {
      length: entries.length,
      messages: (index) => entries[index]?.messages ?? [],
      tokens: (index) => countMessagesCached(counter, entries[index]?.messages ?? []),
      mayHoldSystem: () => true,
      branchIndexOf: (index) => {
        const id = entries[index]?.sourceEntry.id;
        return branchEntries.findIndex((entry) => entry.id === id);
      },
    },
    branchEntries,
    counter,
  );
  return {
    tokens: result.tokens,
    usageTokens: result.usageTokens,
    trailingTokens: result.trailingTokens,
    lastUsageIndex:
      result.usageMessagesFromEnd === null ? null : totalMessages - 1 - result.usageMessagesFromEnd,
  };
}
