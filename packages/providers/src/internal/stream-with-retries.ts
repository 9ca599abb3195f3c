import { ProviderError } from "../errors/provider-error";
import type { Model } from "../model/model";
import type { RetryOptions } from "../provider/provider";
import type { ProviderEvent } from "../provider/provider-event";
import { AssistantMessageBuilder } from "./assistant-message-builder";
import { computeRetryDelay, resolveRetryOptions } from "./compute-retry-delay";
import { sleep } from "./sleep";

/** What one attempt gets to work with. */
export interface AttemptContext {
  builder: AssistantMessageBuilder;
  /** 1 for the first attempt. */
  attempt: number;
}

/** Inputs of {@link streamWithRetries}. */
export interface StreamWithRetriesOptions {
  model: Model;
  signal: AbortSignal | undefined;
  retry: RetryOptions | undefined;
  /**
   * Runs one request. Yields content events built with `context.builder` and, on success, the
   * events of `builder.finish(...)`. Throws on failure (anything; `toError` maps it).
   */
  runAttempt(context: AttemptContext): AsyncIterable<ProviderEvent>;
  /** Maps a failure of `runAttempt` to a typed error. */
  toError(error: unknown, context: AttemptContext): ProviderError;
  /** Source of jitter; `Math.random` by default. */
  random?: () => number;
}

/** The error reported when the caller's signal fired. */
export function abortedError(provider: string): ProviderError {
  return new ProviderError("PROVIDER_ABORTED", "Request was aborted", { provider });
}

/**
 * The loop shared by every adapter: emits `start`, runs attempts, retries retryable failures that
 * happened before any content (with a `retry` event and an abortable wait), and always ends with
 * exactly one `done` or `error` event. Never throws. Leaving the loop early (consumer `break`)
 * returns the attempt's iterator, which cancels its HTTP request.
 */
export async function* streamWithRetries(options: StreamWithRetriesOptions): AsyncGenerator<ProviderEvent> {
  const { model, signal } = options;
  const policy = resolveRetryOptions(options.retry);
  const builder = new AssistantMessageBuilder(model);
  yield builder.startEvent();
  for (let attempt = 1; ; attempt++) {
    const context: AttemptContext = { builder, attempt };
    let finished = false;
    try {
      if (signal?.aborted) throw abortedError(model.provider);
      for await (const event of options.runAttempt(context)) {
        if (event.type === "done") finished = true;
        yield event;
      }
      if (finished) return;
      throw new ProviderError("PROVIDER_STREAM_INTERRUPTED", `${model.provider}: the stream ended early`, {
        provider: model.provider,
      });
    } catch (caught) {
      const error = signal?.aborted ? abortedError(model.provider) : safeToError(options, caught, context);
      const canRetry = !builder.hasContent && error.isRetryable && attempt <= policy.maxRetries;
      const delayMs = canRetry
        ? computeRetryDelay(attempt, policy, error.retryAfterMs, options.random)
        : undefined;
      if (delayMs === undefined) {
        yield builder.fail(error);
        return;
      }
      builder.reset();
      yield { type: "retry", attempt, delayMs, error };
      if (!(await sleep(delayMs, signal))) {
        yield builder.fail(abortedError(model.provider));
        return;
      }
    }
  }
}

function safeToError(
  options: StreamWithRetriesOptions,
  caught: unknown,
  context: AttemptContext,
): ProviderError {
  try {
    return options.toError(caught, context);
  } catch {
    return new ProviderError("PROVIDER_INVALID_RESPONSE", `${options.model.provider}: unexpected failure`, {
      provider: options.model.provider,
    });
  }
}
