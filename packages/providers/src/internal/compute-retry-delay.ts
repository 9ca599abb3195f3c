import type { RetryOptions } from "../provider/provider";

/** Retry policy with every default filled in. */
export type ResolvedRetryOptions = Required<RetryOptions>;

/** Fills the defaults of {@link RetryOptions}: 2 retries, 1 s base, 30 s cap, ±20% jitter. */
export function resolveRetryOptions(options: RetryOptions | undefined): ResolvedRetryOptions {
  return {
    maxRetries: Math.max(0, Math.floor(options?.maxRetries ?? 2)),
    baseDelayMs: Math.max(0, options?.baseDelayMs ?? 1000),
    maxDelayMs: Math.max(0, options?.maxDelayMs ?? 30_000),
    jitter: Math.min(1, Math.max(0, options?.jitter ?? 0.2)),
  };
}

/**
 * Wait before retry number `retry` (1-based): the provider's `retryAfterMs` when given, else
 * `min(maxDelayMs, baseDelayMs * 2^(retry-1))` spread by ±jitter. Returns `undefined` when the
 * provider asks for more than `maxDelayMs` (the caller then gives up and reports the wait).
 * `random` returns a number in [0, 1).
 */
export function computeRetryDelay(
  retry: number,
  options: ResolvedRetryOptions,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  if (retryAfterMs !== undefined) return retryAfterMs > options.maxDelayMs ? undefined : retryAfterMs;
  const exponential = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (retry - 1));
  const spread = exponential * options.jitter * (2 * random() - 1);
  return Math.max(0, Math.round(Math.min(options.maxDelayMs, exponential + spread)));
}
