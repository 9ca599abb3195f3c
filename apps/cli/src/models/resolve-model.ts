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

function fromCustom(definition: CustomModelDefinition): Model {
  const { source: _source, apiKeyEnv: _apiKeyEnv, ...rest } = definition;
  return defineModel(rest);
}

function unknownModel(
  id: string,
  provider: string | undefined,
  custom: readonly CustomModelDefinition[],
): CliError {
  const builtIn = listModels(provider)
    .map((model) => model.id)
    .slice(0, 12);
  const declared = custom.map((model) => model.id);
  const known = [...declared, ...builtIn].join(", ");
  return new CliError(
    "CLI_UNKNOWN_MODEL",
    `unknown model "${id}"${provider ? ` for provider "${provider}"` : ""} (known: ${known}); declare other models in .arbor/models.json or ~/.arbor/models.json`,
  );
}

/**
 * Picks the model: `--model` / `--provider`, else the settings' defaults, else the session's model,
 * else `anthropic/claude-sonnet-4-6` (or OpenAI's default when only `OPENAI_API_KEY` is set). Models
 * declared in a models file win over built-ins with the same id. `--base-url` replaces the endpoint.
 *
 * @throws CliError `CLI_UNKNOWN_MODEL` listing the known ids.
 */
export function resolveModel(request: ModelRequest): ResolvedModel {
  const explicitId = request.model ?? request.settingsModel;
  const explicitProvider = request.provider ?? request.settingsProvider;
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
