import { listModels, type Model, type Provider } from "@arbor/providers";
import { RuntimeError } from "../runtime-error";
import type { ModelRegistry } from "./model-registry";

/** Options of {@link createCatalogueModelRegistry}. */
export interface CatalogueModelRegistryOptions {
  /** Models declared besides the built-in catalogue; they come first and win over a built-in with the same provider and id. */
  models?: readonly Model[];
  /**
   * Creates the provider of a model, or returns `undefined` when it cannot (no key).
   *
   * Contract: must not send a request; may throw for a programmer error only.
   */
  createProvider: (model: Model) => Provider | undefined | Promise<Provider | undefined>;
  /** True when `createProvider` can serve the model. Default: every model is assumed servable. */
  hasConfiguredAuth?: (model: Model) => boolean;
  /** What is missing for a model that cannot be served, for the `MODEL_UNAVAILABLE` message. */
  describeMissing?: (model: Model) => string;
}

/**
 * A {@link ModelRegistry} over the built-in catalogue (`listModels` of `@arbor/providers`) and the
 * declared `models`, with the caller's provider factory. What the runtime uses when
 * `createAgentSession` gets no `models`, and a building block for applications.
 */
export function createCatalogueModelRegistry(options: CatalogueModelRegistryOptions): ModelRegistry {
  const declared = [...(options.models ?? [])];
  const all = (): Model[] => {
    const seen = new Set(declared.map((model) => `${model.provider}/${model.id}`));
    return [...declared, ...listModels().filter((model) => !seen.has(`${model.provider}/${model.id}`))];
  };
  const hasAuth = (model: Model) => options.hasConfiguredAuth?.(model) ?? true;
  return {
    getAll: all,
    getAvailable: () => all().filter(hasAuth),
    find: (provider, modelId) =>
      all().find((model) => model.id === modelId && (provider === undefined || model.provider === provider)),
    hasConfiguredAuth: hasAuth,
    async providerFor(model) {
      const provider = hasAuth(model) ? await options.createProvider(model) : undefined;
      if (provider === undefined) {
        throw new RuntimeError(
          "MODEL_UNAVAILABLE",
          `No provider for model ${model.provider}/${model.id}: ${options.describeMissing?.(model) ?? "no key is configured for it"}`,
        );
      }
      return provider;
    },
  };
}

/**
 * The registry of a session created without `models`: the built-in catalogue, served only for the
 * session model's provider and API (through the session's own provider and key).
 */
export function sessionOnlyModelRegistry(
  sessionModel: () => Model,
  sessionProvider: () => Provider,
): ModelRegistry {
  const servable = (model: Model) =>
    model.provider === sessionModel().provider && model.api === sessionModel().api;
  return createCatalogueModelRegistry({
    models: [sessionModel()],
    hasConfiguredAuth: servable,
    createProvider: (model) => (servable(model) ? sessionProvider() : undefined),
    describeMissing: () =>
      `this session was created without a model registry (createAgentSession's \`models\`), so only models of ${sessionModel().provider} (API ${sessionModel().api}) are served, through the session's own provider`,
  });
}
