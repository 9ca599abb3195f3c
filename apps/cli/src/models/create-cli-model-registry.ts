import type { Model, SecretRedactor } from "@arbor/providers";
import { createCatalogueModelRegistry, type ModelRegistry } from "@arbor/runtime";
import { createModelProvider } from "./create-model-provider";
import type { CustomModelDefinition } from "./load-models-file";
import { fromCustom, resolveModel } from "./resolve-model";

/**
 * The model registry the CLI hands its sessions (`api.models` of extensions): the models declared in
 * the models files the run loaded (the user's; a trusted project's), then the built-in catalogue.
 * A model is available when its key variable is set (or it is a declared model on a local server);
 * its provider uses that key and the model's endpoint, and both join `redactor`.
 */
export function createCliModelRegistry(options: {
  customModels: readonly CustomModelDefinition[];
  env: NodeJS.ProcessEnv;
  redactor: SecretRedactor | undefined;
}): ModelRegistry {
  const { customModels, env, redactor } = options;
  const resolve = (provider: string, id: string) => resolveModel({ provider, model: id, customModels, env });
  const servable = (model: Model) => {
    try {
      const resolved = resolve(model.provider, model.id);
      return resolved.apiKey !== undefined || resolved.keyOptional;
    } catch {
      return false;
    }
  };
  return createCatalogueModelRegistry({
    models: customModels.map(fromCustom),
    hasConfiguredAuth: servable,
    describeMissing: (model) => {
      try {
        return `${resolve(model.provider, model.id).apiKeyEnv} is not set`;
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },
    createProvider: async (model) => {
      const resolved = resolve(model.provider, model.id);
      redactor?.add(resolved.apiKey);
      redactor?.addUrlCredentials(model.baseUrl ?? resolved.model.baseUrl);
      const withEndpoint =
        model.baseUrl === undefined
          ? resolved
          : { ...resolved, model: { ...resolved.model, baseUrl: model.baseUrl } };
      return createModelProvider(withEndpoint, env);
    },
  });
}
