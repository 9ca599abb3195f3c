import { assertPeerInstalled } from "../internal/assert-peer-installed";
import { createSdkProvider, type SdkProviderOptions } from "../internal/create-sdk-provider";
import type { Provider } from "../provider/provider";
import { type AnthropicRequestBody, buildAnthropicRequest } from "./build-anthropic-request";
import { translateAnthropicStream } from "./translate-anthropic-stream";

/** Settings of {@link createAnthropicProvider}; per-call `StreamOptions` win over them. */
export interface AnthropicProviderOptions extends SdkProviderOptions {
  /** API key. Default: `ANTHROPIC_API_KEY` from `env`. */
  apiKey?: string;
  /** Endpoint without `/v1`. Default: the model's `baseUrl`, then `ANTHROPIC_BASE_URL`, then Anthropic's. */
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

/**
 * Creates a provider for models with `api: "anthropic-messages"`, over the official
 * `@anthropic-ai/sdk` (SDK retries are off; this provider retries per `RetryOptions`).
 *
 * The key comes from `StreamOptions.apiKey`, then `options.apiKey`, then `ANTHROPIC_API_KEY`; a
 * missing key ends the stream with a `PROVIDER_MISSING_API_KEY` error naming that variable. The key
 * is only handed to the SDK: it is never logged, stored, or put in an error message.
 *
 * The SDK is an optional peer dependency, imported at the first request.
 *
 * @throws MissingPeerDependencyError (`MISSING_PEER_DEPENDENCY`) when `@anthropic-ai/sdk` is not installed.
 */
export function createAnthropicProvider(options: AnthropicProviderOptions = {}): Provider {
  assertPeerInstalled({
    packageName: "@anthropic-ai/sdk",
    versionRange: "^1.14.0",
    neededBy: "@arbor/providers/anthropic",
  });
  return createSdkProvider<AnthropicRequestBody>(
    {
      name: "anthropic",
      apis: ["anthropic-messages"],
      apiKeyEnv: "ANTHROPIC_API_KEY",
      baseUrlEnv: "ANTHROPIC_BASE_URL",
      defaultBaseUrl: "https://api.anthropic.com",
      requiresKey: () => true,
      buildBody: buildAnthropicRequest,
      async *run(attempt) {
        const { default: Anthropic } = await import("@anthropic-ai/sdk");
        const client = new Anthropic({
          apiKey: attempt.apiKey,
          baseURL: attempt.baseUrl,
          maxRetries: 0,
          fetch: attempt.fetch,
          defaultHeaders: attempt.defaultHeaders,
        });
        const events = await client.messages.create(attempt.body, {
          signal: attempt.options.signal,
          headers: attempt.options.headers,
        });
        yield* translateAnthropicStream(events, attempt.builder, attempt.progress);
      },
    },
    options,
  );
}
