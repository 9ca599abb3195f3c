import { isContextOverflowText } from "../overflow/is-context-overflow-text";
import { extractErrorDetails } from "./extract-error-details";
import type { HeaderSource } from "./header-lookup";
import { parseRetryAfter } from "./parse-retry-after";
import { ProviderError, type ProviderErrorCode } from "./provider-error";
import { redactSecrets } from "./redact-secrets";

/** Context for {@link classifyProviderError}. */
export interface ClassifyProviderErrorOptions {
  /** Provider name stored on the error and used in its message (`anthropic` → "Anthropic API error"). */
  provider?: string;
  /** Secrets (API keys) to scrub from the message. Key-shaped tokens are scrubbed regardless. */
  secrets?: ReadonlyArray<string | undefined>;
  /** Clock for HTTP-date `retry-after` values. */
  now?: number;
}

const OVERFLOW_CODES = new Set([
  "context_length_exceeded",
  "model_context_window_exceeded",
  "request_too_large",
  "exceed_context_size_error",
]);
const QUOTA_CODES = new Set(["insufficient_quota", "billing_error", "billing_not_active", "quota_exceeded"]);
/** Anthropic error types mapped to the status they stand for, for errors sent inside a stream. */
const STATUS_BY_ERROR_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};
const PROVIDER_LABELS: Record<string, string> = {
  anthropic: "Anthropic",
  openai: "OpenAI",
  ollama: "Ollama",
  vllm: "vLLM",
  "llama.cpp": "llama.cpp",
  lmstudio: "LM Studio",
};

function labelOf(provider: string | undefined): string {
  if (!provider) return "Provider";
  return PROVIDER_LABELS[provider] ?? provider;
}

function pickCode(status: number | undefined, text: string, type?: string, code?: string): ProviderErrorCode {
  const markers = [type, code].filter((value): value is string => value !== undefined);
  if (status === 413 || markers.some((marker) => OVERFLOW_CODES.has(marker)) || isContextOverflowText(text)) {
    return "PROVIDER_CONTEXT_OVERFLOW";
  }
  if (status === 402 || markers.some((marker) => QUOTA_CODES.has(marker))) return "PROVIDER_QUOTA_EXCEEDED";
  if (status === 429) return "PROVIDER_RATE_LIMITED";
  if (status === 401 || status === 403) return "PROVIDER_AUTH_FAILED";
  if (status === undefined || status === 408 || status === 409 || status >= 500)
    return "PROVIDER_SERVER_ERROR";
  return "PROVIDER_BAD_REQUEST";
}

/**
 * Turns a failed provider response into a typed {@link ProviderError}.
 *
 * Order of decisions: context overflow first (HTTP 413, an overflow code such as
 * `context_length_exceeded` / `exceed_context_size_error`, or an overflow wording in the message,
 * unless the wording is about rate limits), then quota (402, `insufficient_quota`), rate limit (429,
 * with `retryAfterMs` from `retry-after-ms` / `retry-after`, also read for server errors), auth (401, 403), server errors (5xx,
 * 529, 408, 409, and errors without a status such as an error event inside a stream), and every
 * other 4xx as a bad request. An Anthropic error `type` stands in for a missing status.
 *
 * `body` may be the raw response text or a parsed object in any common envelope. The message reads
 * `"<Provider> API error (<status>): <provider text> [<code>]"`, keeping the provider's own wording
 * so that `isContextOverflow` recognises it later from a stored assistant message. Secrets are
 * scrubbed. Pure; never throws.
 */
export function classifyProviderError(
  status: number | undefined,
  body: unknown,
  headers?: HeaderSource,
  options: ClassifyProviderErrorOptions = {},
): ProviderError {
  const details = extractErrorDetails(body);
  const effectiveStatus = status ?? (details.type ? STATUS_BY_ERROR_TYPE[details.type] : undefined);
  const rawText = details.message ?? (status === undefined ? "unknown error" : "status code (no body)");
  const suffix = details.code && !rawText.includes(details.code) ? ` [${details.code}]` : "";
  const where = status === undefined ? "" : ` (${status})`;
  const message = redactSecrets(
    `${labelOf(options.provider)} API error${where}: ${rawText}${suffix}`,
    options.secrets,
  );
  const code = pickCode(effectiveStatus, message, details.type, details.code);
  const providerCode = details.code ?? details.type;
  const waits = code === "PROVIDER_RATE_LIMITED" || code === "PROVIDER_SERVER_ERROR";
  const retryAfterMs = waits ? parseRetryAfter(headers, options.now) : undefined;
  return new ProviderError(code, message, {
    status,
    retryAfterMs,
    provider: options.provider,
    providerCode,
  });
}
