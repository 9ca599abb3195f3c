import OpenAI from "openai";
import { ProviderError } from "../errors/provider-error";
import { assertProviderRequest } from "../internal/assert-provider-request";
import { type CapturingFetch, captureErrorResponses } from "../internal/capture-error-responses";
import { resolveSetting } from "../internal/resolve-setting";
import type { StreamProgress } from "../internal/stream-progress";
import { streamWithRetries } from "../internal/stream-with-retries";
import { toProviderError } from "../internal/to-provider-error";
import type { Provider, ProviderRequest, RetryOptions, StreamOptions } from "../provider/provider";
import type { ProviderEvent } from "../provider/provider-event";
import { buildOpenAIChatRequest } from "./build-openai-chat-request";
import { buildOpenAIResponsesRequest } from "./build-openai-responses-request";
import { translateOpenAIChatStream } from "./translate-openai-chat-stream";
import { translateOpenAIResponsesStream } from "./translate-openai-responses-stream";

/** Settings of {@link createOpenAIProvider}; per-call `StreamOptions` win over them. */
export interface OpenAIProviderOptions {
  /** API key. Default: `OPENAI_API_KEY` from `env`. */
  apiKey?: string;
  /** Endpoint including `/v1`. Default: the model's `baseUrl`, then `OPENAI_BASE_URL`, then OpenAI's. */
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

const API_KEY_ENV = "OPENAI_API_KEY";
const BASE_URL_ENV = "OPENAI_BASE_URL";
const DEFAULT_BASE_URL = "https://api.openai.com/v1";
/** Sent to servers that need no key, because the SDK refuses to run without one. */
const NO_KEY_PLACEHOLDER = "no-key";

/**
 * Creates a provider for models with `api: "openai-chat"` (Chat Completions) or
 * `"openai-responses"` (Responses API), over the official `openai` SDK (SDK retries are off; this
 * provider retries per `RetryOptions`). Any OpenAI-compatible server (Ollama, vLLM, llama.cpp
 * server, LM Studio) works through the model's or the options' `baseUrl`.
 *
 * The key comes from `StreamOptions.apiKey`, then `options.apiKey`, then `OPENAI_API_KEY`. It is
 * required for the `openai` provider (a missing key ends the stream with a
 * `PROVIDER_MISSING_API_KEY` error naming the variable); for other providers a placeholder is sent
 * when no key is configured. The key is never logged, stored, or put in an error message.
 */
export function createOpenAIProvider(options: OpenAIProviderOptions = {}): Provider {
  const env = options.env ?? process.env;
  return {
    specificationVersion: "v1",
    name: "openai",
    stream(request: ProviderRequest, streamOptions: StreamOptions = {}): AsyncIterable<ProviderEvent> {
      assertProviderRequest("openai", request, ["openai-chat", "openai-responses"]);
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
      const chatBody =
        model.api === "openai-chat" ? buildOpenAIChatRequest(request, streamOptions) : undefined;
      const responsesBody = chatBody ? undefined : buildOpenAIResponsesRequest(request, streamOptions);
      let capture: CapturingFetch | undefined;
      const progress: StreamProgress = { responseStarted: false };
      return streamWithRetries({
        model,
        signal: streamOptions.signal,
        retry: streamOptions.retry ?? options.retry,
        async *runAttempt({ builder }) {
          if (!apiKey && model.provider === "openai") {
            throw new ProviderError(
              "PROVIDER_MISSING_API_KEY",
              `openai: no API key; set ${API_KEY_ENV} or pass apiKey`,
              {
                provider: model.provider,
                envVar: API_KEY_ENV,
              },
            );
          }
          progress.responseStarted = false;
          capture = captureErrorResponses(options.fetch);
          const client = new OpenAI({
            apiKey: apiKey ?? NO_KEY_PLACEHOLDER,
            baseURL,
            maxRetries: 0,
            fetch: capture.fetch,
            defaultHeaders: { ...options.headers, ...model.headers },
          });
          const requestOptions = { signal: streamOptions.signal, headers: streamOptions.headers };
          if (chatBody) {
            const chunks = await client.chat.completions.create(chatBody, requestOptions);
            yield* translateOpenAIChatStream(chunks, builder, progress);
          } else if (responsesBody) {
            const events = await client.responses.create(responsesBody, requestOptions);
            yield* translateOpenAIResponsesStream(events, builder, progress);
          }
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
