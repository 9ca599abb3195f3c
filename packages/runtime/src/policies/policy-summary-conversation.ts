import type { SummaryConversation } from "@arbor/compaction";
import type { Message, ProviderRequest } from "@arbor/providers";

/**
 * The conversation a cache-sharing summary starts with (see `api.session.summarize`): the last
 * request's system prompt, tools and messages, then what came back for it (`tail`: the turn's answer
 * and tool results), with the cache anchor on the last request's last message, where its cache entry
 * ends. Undefined when there is no such request, or it was not answered yet. Pure.
 */
export function policySummaryConversation(
  lastRequest: ProviderRequest | undefined,
  tail: readonly Message[] | undefined,
): SummaryConversation | undefined {
  if (lastRequest === undefined || tail === undefined || lastRequest.messages.length === 0) return undefined;
  return {
    ...(lastRequest.systemPrompt === undefined ? {} : { systemPrompt: lastRequest.systemPrompt }),
    ...(lastRequest.tools === undefined ? {} : { tools: lastRequest.tools }),
    messages: [...lastRequest.messages, ...tail],
    cachedThrough: lastRequest.messages.length - 1,
  };
}
