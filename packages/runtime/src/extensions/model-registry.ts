import type { Model, Provider } from "@arbor/providers";

/**
 * The models an extension may use besides the session's own (`api.models`), with providers that
 * carry the user's keys: the summarizer of a custom compaction can run on another provider, or on a
 * model declared in the user's `models.json`, without importing a provider package.
 *
 * An application passes its own registry to `createAgentSession({ models })` (the CLI's knows the
 * built-in catalogue, the user's models file and the keys in the environment). Without one the
 * session uses a registry of the built-in catalogue whose only provider is the session's own: any
 * model of the session model's provider and API is usable, others are listed but unavailable.
 */
export interface ModelRegistry {
  /** Every model the configuration and the catalogue define (declared models first). */
  getAll(): Model[];
  /** The models of {@link getAll} whose provider can be created (a key is configured, or none is needed). */
  getAvailable(): Model[];
  /**
   * The model with this provider and id, `undefined` when none is defined. The provider may be
   * omitted: the first model with that id (declared models first).
   */
  find(provider: string | undefined, modelId: string): Model | undefined;
  /** True when {@link providerFor} can serve `model` (its key is configured, or it needs none). */
  hasConfiguredAuth(model: Model): boolean;
  /**
   * A provider serving `model` with the user's key and endpoint. Requests through it pass the
   * session's `before_provider_request` hook, as the session's own requests do.
   *
   * Contract: resolves the same kind of provider for the same model each time; never sends a
   * request by itself.
   * @throws RuntimeError `MODEL_UNAVAILABLE` naming the model and what is missing (usually the key's
   *   environment variable).
   */
  providerFor(model: Model): Promise<Provider>;
}
