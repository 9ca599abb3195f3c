import { classifyProviderError } from "../errors/classify-provider-error";
import { ProviderError } from "../errors/provider-error";
import { redactSecrets } from "../errors/redact-secrets";
import type { CapturedResponse } from "./capture-error-responses";

/** What the adapter knows when an attempt fails. */
export interface ToProviderErrorContext {
  provider: string;
  /** Secrets to scrub from messages. */
  secrets: ReadonlyArray<string | undefined>;
  /** The raw error response seen by the HTTP layer, when there was one. */
  captured?: CapturedResponse;
  /** True once the response had started streaming (an error is then an interruption). */
  responseStarted: boolean;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const parts = [error.message];
  let cause: unknown = error.cause;
  for (let depth = 0; cause instanceof Error && depth < 3; depth++) {
    if (cause.message && !parts.includes(cause.message)) parts.push(cause.message);
    cause = cause.cause;
  }
  return parts.filter((part) => part).join(": ");
}

const TRANSPORT_NAMES = new Set(["APIConnectionError", "APIConnectionTimeoutError", "TimeoutError"]);
const TRANSPORT_TEXT =
  /fetch failed|terminated|socket|other side closed|network|premature close|timed? ?out/i;

/**
 * True for failures of the connection itself: the SDKs' connection errors, and undici's
 * `TypeError: fetch failed` / `terminated` with a socket or system error code somewhere in the
 * cause chain. Parse errors count too (a truncated event); bugs elsewhere do not.
 */
function isTransportFailure(error: unknown): boolean {
  if (error instanceof SyntaxError) return true;
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (TRANSPORT_NAMES.has(current.name) || TRANSPORT_TEXT.test(current.message)) return true;
    if (typeof code === "string" && /^(UND_ERR|E[A-Z]+$)/.test(code)) return true;
    current = current.cause;
  }
  return false;
}

/**
 * Maps anything an SDK call can throw to a {@link ProviderError}, without importing either SDK:
 * HTTP status errors (classified from the captured raw body when available, else from the SDK
 * error's `status` / `error` / `headers`), error events inside a stream (an `error` body without
 * status), JSON parse failures (`PROVIDER_INVALID_RESPONSE`), connection failures
 * (`PROVIDER_STREAM_INTERRUPTED` once the response started, else `PROVIDER_NETWORK_ERROR`), and
 * anything else as a non-retryable `PROVIDER_INVALID_RESPONSE`.
 * Abort is decided by the caller from its signal, not here. Never throws.
 */
export function toProviderError(error: unknown, context: ToProviderErrorContext): ProviderError {
  if (ProviderError.isInstance(error)) return error;
  const options = { provider: context.provider, secrets: context.secrets };
  const shape = (typeof error === "object" && error !== null ? error : {}) as Record<string, unknown>;
  const status = typeof shape.status === "number" ? shape.status : undefined;
  if (status !== undefined) {
    if (context.captured && context.captured.status === status) {
      return classifyProviderError(status, context.captured.body, context.captured.headers, options);
    }
    return classifyProviderError(
      status,
      shape.error ?? shape.message,
      shape.headers as Headers | undefined,
      options,
    );
  }
  if (typeof shape.error === "object" && shape.error !== null) {
    return classifyProviderError(undefined, shape.error, undefined, options);
  }
  const text = redactSecrets(describe(error), context.secrets);
  if (!isTransportFailure(error)) {
    return new ProviderError(
      "PROVIDER_INVALID_RESPONSE",
      `${context.provider}: unexpected failure: ${text}`,
      {
        provider: context.provider,
      },
    );
  }
  if (error instanceof SyntaxError) {
    return new ProviderError(
      "PROVIDER_INVALID_RESPONSE",
      `${context.provider}: unreadable response: ${text}`,
      {
        provider: context.provider,
      },
    );
  }
  if (context.responseStarted) {
    return new ProviderError(
      "PROVIDER_STREAM_INTERRUPTED",
      `${context.provider}: the response stream was interrupted: ${text}`,
      { provider: context.provider },
    );
  }
  return new ProviderError("PROVIDER_NETWORK_ERROR", `${context.provider}: connection failed: ${text}`, {
    provider: context.provider,
  });
}
