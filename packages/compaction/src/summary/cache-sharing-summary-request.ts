import type { Message, Model, ProviderRequest, Tool } from "@arbor/providers";
import { withFocus } from "./generate-summary";
import { CACHE_SHARING_SUMMARY_PROMPT } from "./summary-prompts";

/** Characters per token assumed when sizing a request (deliberately low: it overestimates tokens). */
const CHARS_PER_TOKEN = 3.5;
const MARGIN_TOKENS = 1024;
const MIN_ANSWER_TOKENS = 1024;
const DEFAULT_OUTPUT_TOKENS = 16384;

/**
 * The conversation a summary request may share its prompt-cache prefix with: the system prompt, tools
 * and messages of the agent's last request to the model, followed by what came back since (the
 * assistant's answer and tool results). Providers with prompt caching read that prefix from their
 * cache when the summary request starts with it.
 */
export interface SummaryConversation {
  /** The last request's system prompt, as it was sent. */
  systemPrompt?: string;
  /** The last request's tools, as they were sent (the summary sends them too: same prefix). */
  tools?: Tool[];
  /** The last request's messages, then the messages that followed it, oldest first. */
  messages: Message[];
  /**
   * Index in `messages` of the last message of the last request: the summary request puts its cache
   * anchor there (see `ProviderRequest.cacheAnchor`), where the last request's cache entry ends.
   */
  cachedThrough?: number;
}

/** A cache-sharing summary request and the output limit that fits it in the window. */
export interface CacheSharingSummaryRequest {
  /** The conversation followed by the summary instruction, anchored where the last request ended. */
  request: ProviderRequest;
  /** The output limit that fits the request in the model's window. */
  maxTokens: number;
}

/**
 * The summary request that shares its prefix with `conversation`: the same system prompt, tools and
 * messages, then one user message with the summary instructions (and `customInstructions`), with the
 * cache anchor on `conversation.cachedThrough`; and its output limit: the room the request leaves in
 * `model`'s window (input estimated at 3.5 characters per token, less a margin of 1,024 tokens or
 * 10% of the input), at most the model's `maxTokens` (16,384 when unknown) and `requestedMaxTokens`.
 * Returns undefined when that room is under 1,024 tokens (or under that maximum when it is smaller):
 * the caller then sends a fresh summary
 * request. Pure; never mutates `conversation`.
 */
export function cacheSharingSummaryRequest(
  conversation: SummaryConversation,
  model: Model,
  customInstructions?: string,
  requestedMaxTokens?: number,
): CacheSharingSummaryRequest | undefined {
  const instructions = withFocus(CACHE_SHARING_SUMMARY_PROMPT, customInstructions);
  let maxTokens = model.maxTokens > 0 ? model.maxTokens : DEFAULT_OUTPUT_TOKENS;
  if (requestedMaxTokens !== undefined && requestedMaxTokens > 0)
    maxTokens = Math.min(maxTokens, requestedMaxTokens);
  const least = Math.min(MIN_ANSWER_TOKENS, maxTokens);
  if (model.contextWindow > 0) {
    let chars = (conversation.systemPrompt?.length ?? 0) + JSON.stringify(conversation.tools ?? []).length;
    for (const message of conversation.messages) chars += JSON.stringify(message.content).length;
    const input = Math.ceil((chars + instructions.length) / CHARS_PER_TOKEN);
    const room = model.contextWindow - input - Math.max(MARGIN_TOKENS, Math.ceil(0.1 * input));
    maxTokens = Math.min(maxTokens, room);
  }
  if (maxTokens < least) return undefined;
  const last = conversation.messages.at(-1);
  const request: ProviderRequest = {
    model,
    messages: [
      ...conversation.messages,
      {
        role: "user",
        content: [{ type: "text", text: instructions }],
        timestamp: (last?.timestamp ?? 0) + 1,
      },
    ],
  };
  if (conversation.systemPrompt !== undefined) request.systemPrompt = conversation.systemPrompt;
  if (conversation.tools !== undefined) request.tools = conversation.tools;
  if (conversation.cachedThrough !== undefined) request.cacheAnchor = conversation.cachedThrough;
  return { request, maxTokens: Math.floor(maxTokens) };
}
