import { createModelProvider } from "../models/create-model-provider";
import { resolveModel } from "../models/resolve-model";
import type { ChooseSummarizer } from "./compact-command";

/**
 * The summarizer of `arbor compact`: the offline summarizer with `--offline`; otherwise the model
 * chosen like the agent's (`--provider` / `--model`, the settings, the session's model, the default)
 * when its API key is set, else the offline summarizer, saying which key was missing.
 * @throws CliError `CLI_UNKNOWN_MODEL`.
 */
export const chooseSummarizer: ChooseSummarizer = async (command, context) => {
  if (command.offline) return { offlineReason: "--offline" };
  const { settings } = context;
  const resolved = resolveModel({
    ...(command.provider !== undefined ? { provider: command.provider } : {}),
    ...(command.model !== undefined ? { model: command.model } : {}),
    ...(command.baseUrl !== undefined ? { baseUrl: command.baseUrl } : {}),
    ...(settings.defaultProvider !== undefined ? { settingsProvider: settings.defaultProvider } : {}),
    ...(settings.defaultModel !== undefined ? { settingsModel: settings.defaultModel } : {}),
    sessionModel: context.sessionModel,
    customModels: context.customModels,
    env: context.env,
  });
  if (resolved.apiKey === undefined && !resolved.keyOptional) {
    return { offlineReason: `no ${resolved.apiKeyEnv} set` };
  }
  return {
    model: resolved.model,
    provider: await createModelProvider(resolved, context.env),
    ...(resolved.apiKey ? { apiKey: resolved.apiKey } : {}),
  };
};
