import type { Model } from "@arbor/providers";
import type { SessionCore } from "../internal/session-core";
import { sessionOnlyModelRegistry } from "./catalogue-model-registry";
import type { ModelRegistry } from "./model-registry";
import { wrapProvider } from "./wrap-provider";

/**
 * `api.models` (and pi's `ctx.modelRegistry`): the session's registry (`createAgentSession`'s
 * `models`, else the catalogue served through the session's own provider), with every provider it
 * hands out wrapped in `before_provider_request`.
 */
export function createExtensionModels(core: SessionCore): ModelRegistry {
  const inner =
    core.options.models ??
    sessionOnlyModelRegistry(
      () => core.model,
      () => core.baseProvider,
    );
  return Object.freeze({
    getAll: () => inner.getAll(),
    getAvailable: () => inner.getAvailable(),
    find: (provider: string | undefined, modelId: string) => inner.find(provider, modelId),
    hasConfiguredAuth: (model: Model) => inner.hasConfiguredAuth(model),
    providerFor: async (model: Model) => wrapProvider(await inner.providerFor(model), core.bus),
  });
}
