import { ArborError } from "../errors/arbor-error";
import { ANTHROPIC_MODELS } from "./anthropic-models";
import type { Model } from "./model";
import { OPENAI_MODELS } from "./openai-models";

function freezeModel(model: Model): Model {
  Object.freeze(model.cost);
  Object.freeze(model.input);
  if (model.compat) Object.freeze(model.compat);
  return Object.freeze(model);
}

const CATALOG: readonly Model[] = Object.freeze([...ANTHROPIC_MODELS, ...OPENAI_MODELS].map(freezeModel));

/**
 * Lists the built-in models, optionally of one provider (`"anthropic"`, `"openai"`), in catalog
 * order. The entries are frozen; spread one to adjust it (`{ ...model, api: "openai-chat" }`).
 */
export function listModels(provider?: string): Model[] {
  return CATALOG.filter((model) => provider === undefined || model.provider === provider);
}

/**
 * Returns the built-in model `id` of `provider` (frozen).
 *
 * @throws ArborError `MODEL_NOT_FOUND` naming the provider, the id and the known ids, when the
 *   catalog has no such model. Use `defineModel` for models outside the catalog.
 */
export function getModel(provider: string, id: string): Model {
  const found = CATALOG.find((model) => model.provider === provider && model.id === id);
  if (found) return found;
  const known = listModels(provider).map((model) => model.id);
  const hint = known.length > 0 ? `known ids: ${known.join(", ")}` : "no built-in models for this provider";
  throw new ArborError(
    "MODEL_NOT_FOUND",
    `getModel: no built-in model "${id}" for provider "${provider}" (${hint}); use defineModel for other models`,
  );
}
