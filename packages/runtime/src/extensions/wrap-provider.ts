import type { HookBus } from "@arbor/extensions";
import type { Provider, ProviderEvent, ProviderRequest, StreamOptions } from "@arbor/providers";
import type { RuntimeHooks } from "../events/runtime-hooks";

/**
 * Wraps a provider so that every request first goes through the `before_provider_request`
 * interceptor (loop requests and summary requests alike). A handler may return `{ request }` to
 * replace it; the model stays the one the caller chose. With no handler registered the request goes
 * straight through. The wrapper keeps the provider's `name` and its never-throw stream contract.
 */
export function wrapProvider(provider: Provider, bus: HookBus<RuntimeHooks>): Provider {
  return {
    specificationVersion: "v1",
    name: provider.name,
    stream(request: ProviderRequest, options?: StreamOptions): AsyncIterable<ProviderEvent> {
      if (bus.listenerCount("before_provider_request") === 0) return provider.stream(request, options);
      return streamAfterHook(provider, bus, request, options);
    },
  };
}

async function* streamAfterHook(
  provider: Provider,
  bus: HookBus<RuntimeHooks>,
  request: ProviderRequest,
  options: StreamOptions | undefined,
): AsyncGenerator<ProviderEvent> {
  const { signal, ...rest } = options ?? {};
  const outcome = await bus.intercept(
    "before_provider_request",
    { type: "before_provider_request", request, options: rest },
    signal === undefined ? {} : { signal },
  );
  const replacement = outcome.result?.request;
  const finalRequest = replacement === undefined ? request : { ...replacement, model: request.model };
  yield* provider.stream(finalRequest, options);
}
