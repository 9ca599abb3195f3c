import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import type { ResponseCreateParamsStreaming } from "openai/resources/responses/responses";
import { assertPeerInstalled } from "../internal/assert-peer-installed";
import { createSdkProvider, type SdkProviderOptions } from "../internal/create-sdk-provider";
import type { Provider, ProviderRequest, StreamOptions } from "../provider/provider";
import { buildOpenAIChatRequest } from "./build-openai-chat-request";
import { buildOpenAIResponsesRequest } from "./build-openai-responses-request";
import { translateOpenAIChatStream } from "./translate-openai-chat-stream";
import { translateOpenAIResponsesStream } from "./translate-openai-responses-stream";

/** Settings of {@link createOpenAIProvider}; per-call `StreamOptions` win over them. */
export interface OpenAIProviderOptions extends SdkProviderOptions {
  /** API key. Default: `OPENAI_API_KEY` from `env`. */
  apiKey?: string;
  /** Endpoint including `/v1`. Default: the model's `baseUrl`, then `OPENAI_BASE_URL`, then OpenAI's. */
  baseUrl?: string;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Default retry policy (see `RetryOptions`). */
  retry?: SdkProviderOptions["retry"];
  /** Environment to read keys and URLs from. Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** `fetch` implementation handed to the SDK. Default the global `fetch`. */
  fetch?: typeof fetch;
}

type OpenAIRequestBody =
  | { api: "openai-chat"; params: ChatCompletionCreateParamsStreaming }
  | { api: "openai-responses"; params: ResponseCreateParamsStreaming };

/** Sent to servers that need no key, because the SDK refuses to run without one. */
const NO_KEY_PLACEHOLDER = "no-key";

function buildBody(request: ProviderRequest, options: StreamOptions): OpenAIRequestBody {
  return request.model.api === "openai-chat"
    ? { api: "openai-chat", params: buildOpenAIChatRequest(request, options) }
    : { api: "openai-responses", params: buildOpenAIResponsesRequest(request, options) };
}

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
 *
 * The SDK is an optional peer dependency, imported at the first request.
 *
 * @throws MissingPeerDependencyError (`MISSING_PEER_DEPENDENCY`) when `openai` is not installed.
 */
export function createOpenAIProvider(options: OpenAIProviderOptions = {}): Provider {
  assertPeerInstalled({
    packageName: "openai",
    versionRange: "^6.49.0",
    neededBy: "@arbor/providers/openai",
  });
  return createSdkProvider<OpenAIRequestBody>(
    {
      name: "openai",
      apis: ["openai-chat", "openai-responses"],
      apiKeyEnv: "OPENAI_API_KEY",
      baseUrlEnv: "OPENAI_BASE_URL",
      defaultBaseUrl: "https://api.openai.com/v1",
      requiresKey: (model) => model.provider === "openai",
      buildBody,
      async *run(attempt) {
        const { default: OpenAI } = await import("openai");
        const client = new OpenAI({
          apiKey: attempt.apiKey ?? NO_KEY_PLACEHOLDER,
          baseURL: attempt.baseUrl,
          maxRetries: 0,
          fetch: attempt.fetch,
          defaultHeaders: attempt.defaultHeaders,
        });
        const requestOptions = { signal: attempt.options.signal, headers: attempt.options.headers };
        if (attempt.body.api === "openai-chat") {
          const chunks = await client.chat.completions.create(attempt.body.params, requestOptions);
          yield* translateOpenAIChatStream(chunks, attempt.builder, attempt.progress);
        } else {
          const events = await client.responses.create(attempt.body.params, requestOptions);
          yield* translateOpenAIResponsesStream(events, attempt.builder, attempt.progress);
        }
      },
    },
    options,
  );
}
