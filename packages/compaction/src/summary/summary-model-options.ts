import type { Model, Provider, ReasoningLevel, RetryOptions } from "@arbor/providers";
import type { SummaryConversation } from "./cache-sharing-summary-request";

/** How summaries are requested from a model. */
export interface SummaryModelOptions {
  /** The provider that serves `model` (for example from `@arbor/providers/anthropic`). */
  provider: Provider;
  /** The model that writes the summary. Its `contextWindow` and `maxTokens` size the request. */
  model: Model;
  /** Aborts the request; the summary then fails with `SUMMARY_ABORTED`. */
  signal?: AbortSignal;
  /** Extra focus from the user, appended to the instructions of every request. */
  customInstructions?: string;
  /** Thinking level; sent only when the model supports reasoning and the level is not `"off"`. */
  reasoning?: ReasoningLevel;
  /**
   * Output limit. Default: the model's `maxTokens`, lowered so that prompt plus output fit the context
   * window with a safety margin (the larger of 4096 tokens and 15% of the prompt).
   */
  maxTokens?: number;
  /** Routing id for the request (OpenAI cache key). Default: a fresh random id per request. */
  sessionId?: string;
  /** Extra HTTP headers. */
  headers?: Record<string, string>;
  /** API key for this request (never logged). */
  apiKey?: string;
  /** Retries of failures before any content arrived (the provider's default when omitted). */
  retry?: RetryOptions;
  /**
   * The agent's conversation as its last request sent it (plus what followed). When given to
   * `compact`, the summary is asked for in one request that starts with this conversation (its system
   * prompt, tools and messages, see `cacheSharingSummaryRequest`), so a provider with prompt caching
   * reads that prefix from its cache instead of a fresh transcript at the full input price; a
   * conversation that would not fit the window falls back to the fresh request. Only worth it when
   * `model` is the model the conversation was sent to (another model has no cache entry for it).
   */
  conversation?: SummaryConversation;
}
