import { ArborError } from "./arbor-error";
import { hasErrorMarker, setErrorMarker } from "./error-marker";

const PROVIDER_MARKER = Symbol.for("arbor.error.provider");

/**
 * Stable codes of {@link ProviderError}. Each code's structured fields:
 *
 * - `PROVIDER_CONTEXT_OVERFLOW`: the request does not fit the model's context window. `status` when
 *   the provider answered over HTTP. Not retryable as is: shrink the context first.
 * - `PROVIDER_RATE_LIMITED`: too many requests or tokens per minute. `retryAfterMs` when the provider
 *   said how long to wait (`retry-after` / `retry-after-ms`). Retryable.
 * - `PROVIDER_QUOTA_EXCEEDED`: billing or quota exhausted (HTTP 402, OpenAI `insufficient_quota`).
 *   Not retryable.
 * - `PROVIDER_AUTH_FAILED`: the key was rejected (HTTP 401 / 403). Not retryable.
 * - `PROVIDER_SERVER_ERROR`: the provider failed or is overloaded (5xx, 529, 408, 409, an error event
 *   in the middle of a stream). Retryable.
 * - `PROVIDER_NETWORK_ERROR`: no HTTP response (connection refused, reset, DNS, timeout). Retryable.
 * - `PROVIDER_STREAM_INTERRUPTED`: the response started but the stream ended before its final event.
 *   Retryable when no content was delivered yet.
 * - `PROVIDER_ABORTED`: the caller's `AbortSignal` fired. Not retryable.
 * - `PROVIDER_MISSING_API_KEY`: no key in the options nor in `envVar`. Not retryable.
 * - `PROVIDER_BAD_REQUEST`: any other 4xx (invalid parameters, unknown model), or a request the adapter
 *   refuses to send (a base URL with credentials in it). Not retryable.
 * - `PROVIDER_INVALID_RESPONSE`: the provider sent something the adapter cannot read. Not retryable.
 * - `PROVIDER_CONTENT_REFUSED`: the model declined, or a safety filter stopped the response
 *   (Anthropic `refusal`, OpenAI `content_filter`). Not retryable.
 */
export type ProviderErrorCode =
  | "PROVIDER_CONTEXT_OVERFLOW"
  | "PROVIDER_RATE_LIMITED"
  | "PROVIDER_QUOTA_EXCEEDED"
  | "PROVIDER_AUTH_FAILED"
  | "PROVIDER_SERVER_ERROR"
  | "PROVIDER_NETWORK_ERROR"
  | "PROVIDER_STREAM_INTERRUPTED"
  | "PROVIDER_ABORTED"
  | "PROVIDER_MISSING_API_KEY"
  | "PROVIDER_BAD_REQUEST"
  | "PROVIDER_INVALID_RESPONSE"
  | "PROVIDER_CONTENT_REFUSED";

const RETRYABLE_CODES: ReadonlySet<ProviderErrorCode> = new Set([
  "PROVIDER_RATE_LIMITED",
  "PROVIDER_SERVER_ERROR",
  "PROVIDER_NETWORK_ERROR",
  "PROVIDER_STREAM_INTERRUPTED",
]);

/** Structured fields of a {@link ProviderError}. */
export interface ProviderErrorOptions {
  /** HTTP status of the failed response, when there was one. */
  status?: number;
  /** How long the provider asked to wait before retrying, in milliseconds. */
  retryAfterMs?: number;
  /** Provider name (`anthropic`, `openai`, `ollama`, ...) that produced the error. */
  provider?: string;
  /** The provider's own error type or code (`invalid_request_error`, `context_length_exceeded`). */
  providerCode?: string;
  /** For `PROVIDER_MISSING_API_KEY`: the environment variable that was consulted. */
  envVar?: string;
  /** Underlying error (never an object that holds an API key). */
  cause?: unknown;
}

/**
 * A failure to get a response from a model, with a stable {@link ProviderErrorCode}. Providers never
 * throw it from `stream()`: it travels in the final `error` event, next to the assistant message
 * that keeps whatever content arrived. The message never contains an API key.
 */
export class ProviderError extends ArborError {
  declare readonly code: ProviderErrorCode;
  /** HTTP status of the failed response, when there was one. */
  readonly status: number | undefined;
  /** Milliseconds the provider asked to wait (rate limits), when it said so. */
  readonly retryAfterMs: number | undefined;
  /** Provider name that produced the error, when known. */
  readonly provider: string | undefined;
  /** The provider's own error type or code, when it sent one. */
  readonly providerCode: string | undefined;
  /** For `PROVIDER_MISSING_API_KEY`: the environment variable that was consulted. */
  readonly envVar: string | undefined;

  constructor(code: ProviderErrorCode, message: string, options: ProviderErrorOptions = {}) {
    super(code, message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ProviderError";
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.provider = options.provider;
    this.providerCode = options.providerCode;
    this.envVar = options.envVar;
    setErrorMarker(this, PROVIDER_MARKER);
  }

  /** True when sending the same request again may succeed (rate limits, server and network errors). */
  get isRetryable(): boolean {
    return RETRYABLE_CODES.has(this.code);
  }

  /** True for any provider error, whichever copy of the package created it. */
  static override isInstance(value: unknown): value is ProviderError {
    return hasErrorMarker(value, PROVIDER_MARKER);
  }
}
