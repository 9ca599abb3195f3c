import { createSecretRedactor } from "../errors/create-secret-redactor";
import { ProviderError } from "../errors/provider-error";
import type { Model } from "../model/model";
import type { Provider, ProviderRequest, RetryOptions, StreamOptions } from "../provider/provider";
import type { ProviderEvent } from "../provider/provider-event";
import { assertProviderRequest } from "./assert-provider-request";
import type { AssistantMessageBuilder } from "./assistant-message-builder";
import { type CapturingFetch, captureErrorResponses } from "./capture-error-responses";
import { resolveSetting } from "./resolve-setting";
import type { StreamProgress } from "./stream-progress";
import { streamWithRetries } from "./stream-with-retries";
import { toProviderError } from "./to-provider-error";
import { urlCredentials } from "./url-credentials";

/** Settings shared by the SDK-backed provider factories. */
export interface SdkProviderOptions {
  apiKey?: string;
  baseUrl?: string;
  headers?: Record<string, string>;
  retry?: RetryOptions;
  env?: Record<string, string | undefined>;
  fetch?: typeof fetch;
}

/** Everything one attempt needs to call an SDK. */
export interface SdkAttempt<Body> {
  body: Body;
  /** The resolved key, or undefined when none is configured and none is required. */
  apiKey: string | undefined;
  baseUrl: string;
  /** Error-capturing `fetch` to hand to the SDK client. */
  fetch: typeof fetch;
  /** Factory and model headers, to use as the client's default headers. */
  defaultHeaders: Record<string, string>;
  options: StreamOptions;
  builder: AssistantMessageBuilder;
  progress: StreamProgress;
}

/** What differs between the Anthropic and OpenAI adapters. */
export interface SdkProviderSpec<Body> {
  name: string;
  apis: readonly string[];
  apiKeyEnv: string;
  baseUrlEnv: string;
  defaultBaseUrl: string;
  /** Whether a missing key is an error for this model (false for keyless local servers). */
  requiresKey(model: Model): boolean;
  buildBody(request: ProviderRequest, options: StreamOptions): Body;
  /** Sends the request and translates the stream (yielding `done` on success). */
  run(attempt: SdkAttempt<Body>): AsyncIterable<ProviderEvent>;
}

/**
 * Builds a `Provider` around an SDK: validates the request and builds the body before anything is
 * sent (so malformed input throws synchronously), resolves key and endpoint (call, model, factory,
 * environment), then streams through `streamWithRetries`, mapping failures with the raw error body
 * captured from `fetch`. A missing required key ends the stream with `PROVIDER_MISSING_API_KEY`; a
 * base URL with credentials in it (`https://user:pass@host`, which `fetch` refuses) ends it with
 * `PROVIDER_BAD_REQUEST` before anything is sent. Error texts never hold the key nor the URL's
 * password (see `redactSecrets`).
 */
export function createSdkProvider<Body>(spec: SdkProviderSpec<Body>, options: SdkProviderOptions): Provider {
  const env = options.env ?? process.env;
  return {
    specificationVersion: "v1",
    name: spec.name,
    stream(request: ProviderRequest, streamOptions: StreamOptions = {}): AsyncIterable<ProviderEvent> {
      assertProviderRequest(spec.name, request, spec.apis);
      const { model } = request;
      const body = spec.buildBody(request, streamOptions);
      const apiKey = resolveSetting({
        call: streamOptions.apiKey,
        provider: options.apiKey,
        env,
        envVar: spec.apiKeyEnv,
      });
      const baseUrl =
        resolveSetting({
          call: streamOptions.baseUrl,
          model: model.baseUrl,
          provider: options.baseUrl,
          env,
          envVar: spec.baseUrlEnv,
        }) ?? spec.defaultBaseUrl;
      const secrets = [apiKey, ...urlCredentials(baseUrl)];
      const progress: StreamProgress = { responseStarted: false };
      let capture: CapturingFetch | undefined;
      return streamWithRetries({
        model,
        signal: streamOptions.signal,
        retry: streamOptions.retry ?? options.retry,
        runAttempt({ builder }) {
          if (!apiKey && spec.requiresKey(model)) {
            const message = `${spec.name}: no API key; set ${spec.apiKeyEnv} or pass apiKey`;
            throw new ProviderError("PROVIDER_MISSING_API_KEY", message, {
              provider: model.provider,
              envVar: spec.apiKeyEnv,
            });
          }
          if (urlCredentials(baseUrl).length > 0) throw credentialsInUrl(spec, baseUrl, model.provider);
          progress.responseStarted = false;
          capture = captureErrorResponses(options.fetch);
          return spec.run({
            body,
            apiKey,
            baseUrl,
            fetch: capture.fetch,
            defaultHeaders: { ...options.headers, ...model.headers },
            options: streamOptions,
            builder,
            progress,
          });
        },
        toError: (error) =>
          toProviderError(error, {
            provider: model.provider,
            secrets,
            captured: capture?.last,
            responseStarted: progress.responseStarted,
          }),
      });
    },
  };
}

function credentialsInUrl(spec: { name: string; apiKeyEnv: string }, baseUrl: string, provider: string) {
  const shown = createSecretRedactor(urlCredentials(baseUrl)).redact(baseUrl);
  return new ProviderError(
    "PROVIDER_BAD_REQUEST",
    `${spec.name}: the base URL ${shown} has credentials in it (user:password@), which fetch refuses; remove them and give the key as apiKey or ${spec.apiKeyEnv}`,
    { provider },
  );
}
