import Anthropic from "@anthropic-ai/sdk";
import { ProviderError } from "../errors/provider-error";
import { assertProviderRequest } from "../internal/assert-provider-request";
import { type CapturingFetch, captureErrorResponses } from "../internal/capture-error-responses";
import { resolveSetting } from "../internal/resolve-setting";
import type { StreamProgress } from "../internal/stream-progress";
import { streamWithRetries } from "../internal/stream-with-retries";
import { toProviderError } from "../internal/to-provider-error";
import type { Provider, ProviderRequest, RetryOptions, StreamOptions } from "../provider/provider";
import type { ProviderEvent } from "../provider/provider-event";
import { buildAnthropicRequest } from "./build-anthropic-request";
import { translateAnthropicStream } from "./translate-anthropic-stream";

/** Settings of {@link createAnthropicProvider}; per-call `StreamOptions` win over them. */
export interface AnthropicProviderOptions {
  /** API key. Default: `ANTHROPIC_API_KEY` from `env`. */
  apiKey?: string;
  /** Endpoint without `/v1`. Default: the model's `baseUrl`, then `ANTHROPIC_BASE_URL`, then Anthropic's. */
  baseUrl?: string;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Default retry policy (see `RetryOptions`). */
  retry?: RetryOptions;
  /** Environment to read keys and URLs from. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** `fetch` implementation handed to the SDK. Default the global `fetch`. */
  fetch?: typeof fetch;
}

const API_KEY_ENV = "ANTHROPIC_API_KEY";
const BASE_URL_ENV = "ANTHROPIC_BASE_URL";
const DEFAULT_BASE_URL = "https://api.anthropic.com";

/**
 * Creates a provider for models with `api: "anthropic-messages"`, over the official
 * `@anthropic-ai/sdk` (SDK retries are off; this provider retries per `RetryOptions`).
 *
 * The key comes from `StreamOptions.apiKey`, then `options.apiKey`, then `ANTHROPIC_API_KEY`; a
 * missing key ends the stream with a `PROVIDER_MISSING_API_KEY` error naming that variable. The key
 * is only handed to the SDK: it is never logged, stored, or put in an error message.
 */
export function createAnthropicProvider(options: AnthropicProviderOptions = {}): Provider {
  const env = options.env ?? process.env;
  return {
    specificationVersion: "v1",
    name: "anthropic",
    stream(request: ProviderRequest, streamOptions: StreamOptions = {}): AsyncIterable<ProviderEvent> {
      assertProviderRequest("anthropic", request, ["anthropic-messages"]);
      const { model } = request;
      const apiKey = resolveSetting({
        call: streamOptions.apiKey,
        provider: options.apiKey,
        env,
        envVar: API_KEY_ENV,
      });
      const baseURL =
        resolveSetting({
          call: streamOptions.baseUrl,
          model: model.baseUrl,
          provider: options.baseUrl,
          env,
          envVar: BASE_URL_ENV,
        }) ?? DEFAULT_BASE_URL;
      // Built before any request: malformed input throws here, as a programmer error.
      const body = buildAnthropicRequest(request, streamOptions);
      let capture: CapturingFetch | undefined;
      const progress: StreamProgress = { responseStarted: false };
      return streamWithRetries({
        model,
        signal: streamOptions.signal,
        retry: streamOptions.retry ?? options.retry,
        async *runAttempt({ builder }) {
          if (!apiKey) {
            throw new ProviderError(
              "PROVIDER_MISSING_API_KEY",
              `anthropic: no API key; set ${API_KEY_ENV} or pass apiKey`,
              { provider: model.provider, envVar: API_KEY_ENV },
            );
          }
          progress.responseStarted = false;
          capture = captureErrorResponses(options.fetch);
          const client = new Anthropic({
            apiKey,
            baseURL,
            maxRetries: 0,
            fetch: capture.fetch,
            defaultHeaders: { ...options.headers, ...model.headers },
          });
          const events = await client.messages.create(body, {
            signal: streamOptions.signal,
            headers: streamOptions.headers,
          });
          yield* translateAnthropicStream(events, builder, progress);
        },
        toError: (error) =>
          toProviderError(error, {
            provider: model.provider,
            secrets: [apiKey],
            captured: capture?.last,
            responseStarted: progress.responseStarted,
          }),
      });
    },
  };
}
