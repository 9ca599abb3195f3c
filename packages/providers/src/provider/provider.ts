import type { Message, Tool } from "../message";
import type { Model } from "../model/model";
import type { ReasoningLevel } from "../model/reasoning-level";
import type { ProviderEvent } from "./provider-event";

/** What a provider sends to the model: the system prompt, the conversation and the tool list. */
export interface ProviderRequest {
  model: Model;
  systemPrompt?: string;
  /**
   * The conversation, oldest first. Adapters normalise a copy before sending (see
   * `normalizeMessagesForProvider`); the array and its messages are never mutated.
   */
  messages: Message[];
  tools?: Tool[];
  /**
   * Index in `messages` of an old message that is expected to stay unchanged for a while (a context
   * policy knows which: the last one before anything it will edit). Adapters with explicit prompt
   * caching (Anthropic) put one more cache breakpoint after it, so that an edit after it leaves the
   * prefix up to it readable from the cache. Honoured only for a user message or tool result directly
   * followed by an assistant message; ignored otherwise, and by adapters that cache automatically.
   */
  cacheAnchor?: number;
}

/**
 * How long the provider should keep the prompt cache. `"short"` (default) is Anthropic's 5-minute
 * cache and OpenAI's in-memory cache; `"long"` asks for 1 hour (Anthropic `ttl: "1h"`) or 24 hours
 * (OpenAI `prompt_cache_retention`); `"none"` writes no cache at all, for one-off requests such as
 * summaries.
 */
export type CacheRetention = "none" | "short" | "long";

/**
 * Retries of a request that failed before any content arrived (rate limits, server errors,
 * network errors, a stream cut before its first content). The wait before retry `n` (1-based) is
 * `min(maxDelayMs, baseDelayMs * 2^(n-1))`, spread by ±`jitter` (a fraction, 0.2 = ±20%). A
 * `retry-after` from the provider replaces the computed wait; when it asks for more than
 * `maxDelayMs` the error is returned at once with its `retryAfterMs`, so the caller can decide.
 */
export interface RetryOptions {
  /** Retries after the first attempt. Default 2; 0 disables retries. */
  maxRetries?: number;
  /** Default 1000. */
  baseDelayMs?: number;
  /** Default 30000. */
  maxDelayMs?: number;
  /** Default 0.2. */
  jitter?: number;
}

/** Options of one `stream()` call. Every field is optional. */
export interface StreamOptions {
  /** Aborts the request; the stream then ends with an `error` event whose `stopReason` is `"aborted"`. */
  signal?: AbortSignal;
  /** Output token limit. Default: the model's `maxTokens`. */
  maxTokens?: number;
  /** Sampling temperature; not sent when the model is reasoning (APIs reject it there). */
  temperature?: number;
  /** Thinking / reasoning effort; unset leaves the model's default. */
  reasoning?: ReasoningLevel;
  /** Prompt cache lifetime. Default `"short"`. */
  cacheRetention?: CacheRetention;
  /** Stable id of the conversation, used as the OpenAI prompt cache key. */
  sessionId?: string;
  /** Extra HTTP headers for this request (merged over the model's headers). */
  headers?: Record<string, string>;
  /** API key; overrides the provider's and the environment's. Never logged or stored. */
  apiKey?: string;
  /** Endpoint; overrides the model's, the provider's and the environment's. */
  baseUrl?: string;
  /** Retry policy for failures before any content arrived. */
  retry?: RetryOptions;
}

/**
 * A model backend. Adapters live at `@arbor/providers/anthropic` and `@arbor/providers/openai`;
 * `@arbor/providers/testing` has a scripted one for tests.
 */
export interface Provider {
  /** Version of this interface; bumps on breaking changes. */
  readonly specificationVersion: "v1";
  /** Name for logs and errors, for example `"anthropic"`. */
  readonly name: string;
  /**
   * Streams one assistant response.
   *
   * Contract: the returned iterable yields exactly one `start` event first and exactly one final
   * `done` or `error` event last, with content events (`text-*`, `thinking-*`, `toolcall-*`) and
   * `retry` notices in between. Iteration never throws for model, network or abort failures: they
   * end the stream with an `error` event that carries the assistant message (stop reason `"error"`
   * or `"aborted"`, `errorMessage`, and all content received so far) and a typed `ProviderError`.
   * It throws synchronously, before any request, only for programmer errors (for example a model
   * whose `api` this provider cannot serve). Breaking out of the loop cancels the HTTP request.
   * Each call iterates once.
   */
  stream(request: ProviderRequest, options?: StreamOptions): AsyncIterable<ProviderEvent>;
}
