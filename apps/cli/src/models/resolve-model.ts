import { defineModel, listModels, type Model } from "@arbor/providers";
import { CliError } from "../cli-error";
import type { CustomModelDefinition } from "./load-models-file";

/** What selects the model, strongest first. */
export interface ModelRequest {
  /** `--provider`. */
  provider?: string;
  /** `--model`. */
  model?: string;
  /** `--base-url`: replaces the model's endpoint. */
  baseUrl?: string;
  /** `defaultProvider` / `defaultModel` from the settings. */
  settingsProvider?: string;
  settingsModel?: string;
  /** The model recorded in the session (the latest model change or assistant message). */
  sessionModel?: { provider: string; modelId: string } | null;
  /** Models declared in the models files. */
  customModels: readonly CustomModelDefinition[];
  env: NodeJS.ProcessEnv;
}

/** The model to use and how to reach it. */
export interface ResolvedModel {
  model: Model;
  /** The environment variable holding the key. */
  apiKeyEnv: string;
  /** Its value; `undefined` when unset (see {@link requireApiKey}). */
  apiKey: string | undefined;
  /** True when no key is needed (a custom model on a local server). */
  keyOptional: boolean;
}

const DEFAULTS: Record<string, string> = { anthropic: "claude-sonnet-4-6", openai: "gpt-4.1" };

/** `ANTHROPIC_API_KEY`, `OPENAI_API_KEY`, or `<PROVIDER>_API_KEY` (non-alphanumerics become `_`). */
export function apiKeyEnvFor(provider: string): string {
  return `${provider.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_API_KEY`;
}

function isLocal(baseUrl: string | undefined): boolean {
  if (baseUrl === undefined) return false;
  const host = new URL(baseUrl).hostname;
  return host === "localhost" || host === "127.0.0.1" || host === "::1" || host === "[::1]";
}

/** The `Model` of a declared model (its `source` and `apiKeyEnv` dropped). */
export function fromCustom(definition: CustomModelDefinition): Model {
  const { source: _source, apiKeyEnv: _apiKeyEnv, ...rest } = definition;
  return defineModel(rest);
}

function unknownModel(
  id: string,
  provider: string | undefined,
  custom: readonly CustomModelDefinition[],
): CliError {
  const known = [
    ...custom.filter((model) => provider === undefined || model.provider === provider),
    ...listModels(provider),
  ].map((model) => `${model.provider}/${model.id}`);
  const list = known.length === 0 ? "none" : known.join(", ");
  return new CliError(
    "CLI_UNKNOWN_MODEL",
    `unknown model "${id}"${provider ? ` for provider "${provider}"` : ""} (known: ${list}; arbor models shows them with their windows and prices); declare other models in .arbor/models.json or ~/.arbor/models.json`,
  );
}

/**
 * Splits `--model provider/id` into its parts when `provider` is a known provider (built-in or
 * declared) and the whole string is not itself a model id (ids may contain "/").
 * @throws CliError `CLI_USAGE` when `--provider` names another provider than the prefix.
 */
function splitProviderPrefix(
  model: string,
  provider: string | undefined,
  custom: readonly CustomModelDefinition[],
): { model: string; provider: string | undefined } {
  const slash = model.indexOf("/");
  if (slash <= 0) return { model, provider };
  const isId =
    custom.some((candidate) => candidate.id === model) ||
    listModels().some((candidate) => candidate.id === model);
  if (isId) return { model, provider };
  const prefix = model.slice(0, slash);
  const providers = new Set([
    ...listModels().map((candidate) => candidate.provider),
    ...custom.map((candidate) => candidate.provider),
  ]);
  if (!providers.has(prefix)) return { model, provider };
  if (provider !== undefined && provider !== prefix) {
    throw new CliError(
      "CLI_USAGE",
      `--model ${model} names provider "${prefix}" but --provider is "${provider}"`,
    );
  }
  return { model: model.slice(slash + 1), provider: prefix };
}

/**
 * Picks the model: `--model` / `--provider`, else the settings' defaults, else the session's model,
 * else `anthropic/claude-sonnet-4-6` (or OpenAI's default when only `OPENAI_API_KEY` is set). A model
 * may be written `provider/id` (`anthropic/claude-sonnet-4-6`), in `--model` and in `defaultModel`;
 * an id that itself contains "/" is taken whole. Models
 * declared in a models file win over built-ins with the same id. `--base-url` replaces the endpoint.
 *
 * @throws CliError `CLI_UNKNOWN_MODEL` listing the known `provider/id`s; `CLI_USAGE` when the
 *   `provider/` prefix contradicts `--provider`.
 */
export function resolveModel(request: ModelRequest): ResolvedModel {
  const fromFlag =
    request.model !== undefined
      ? splitProviderPrefix(request.model, request.provider, request.customModels)
      : undefined;
  const fromSettings =
    fromFlag === undefined && request.settingsModel !== undefined
      ? splitProviderPrefix(
          request.settingsModel,
          request.provider ?? request.settingsProvider,
          request.customModels,
        )
      : undefined;
  const explicitId = fromFlag?.model ?? fromSettings?.model;
  const explicitProvider =
    fromFlag?.provider ?? fromSettings?.provider ?? request.provider ?? request.settingsProvider;
  let id = explicitId;
  let provider = explicitProvider;
  if (
    id === undefined &&
    request.sessionModel &&
    (provider === undefined || provider === request.sessionModel.provider)
  ) {
    id = request.sessionModel.modelId;
    provider = request.sessionModel.provider;
  }
  if (id === undefined) {
    provider ??= request.env.ANTHROPIC_API_KEY || !request.env.OPENAI_API_KEY ? "anthropic" : "openai";
    id = DEFAULTS[provider];
    if (id === undefined)
      throw new CliError("CLI_USAGE", `--provider ${provider} needs --model (no default model)`);
  }
  const custom = request.customModels.find(
    (model) => model.id === id && (provider === undefined || model.provider === provider),
  );
  let model: Model;
  let apiKeyEnv: string;
  let keyOptional = false;
  if (custom) {
    model = fromCustom(custom);
    apiKeyEnv = custom.apiKeyEnv ?? apiKeyEnvFor(custom.provider);
    keyOptional = isLocal(request.baseUrl ?? custom.baseUrl);
  } else {
    const candidates = listModels(provider).filter((candidate) => candidate.id === id);
    const found = candidates[0];
    if (!found) throw unknownModel(id, provider, request.customModels);
    model = found;
    apiKeyEnv = apiKeyEnvFor(found.provider);
  }
  if (request.baseUrl !== undefined) {
    model = { ...model, baseUrl: request.baseUrl };
    keyOptional ||= custom !== undefined && isLocal(request.baseUrl);
  }
  const apiKey = request.env[apiKeyEnv] || undefined;
  return { model, apiKeyEnv, apiKey, keyOptional };
}

/**
 * The key of a resolved model.
 * @throws CliError `CLI_MISSING_API_KEY` naming the variable (unless the model needs no key).
 */
export function requireApiKey(resolved: ResolvedModel): string | undefined {
  if (resolved.apiKey !== undefined || resolved.keyOptional) return resolved.apiKey;
  throw new CliError(
    "CLI_MISSING_API_KEY",
    `${resolved.apiKeyEnv} is not set: export it to use ${resolved.model.provider}/${resolved.model.id} (or pick another model with --model)`,
  );
}
