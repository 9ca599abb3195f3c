import type { Model } from "@arbor/providers";
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
  if (command.offline) return { offlineReason: "--offline", ...sessionModelOf(command, context) };
  const resolved = resolveRequested(command, context);
  if (resolved.apiKey === undefined && !resolved.keyOptional) {
    return { offlineReason: `no ${resolved.apiKeyEnv} set`, sessionModel: resolved.model };
  }
  return {
    model: resolved.model,
    sessionModel: resolved.model,
    provider: await createModelProvider(resolved, context.env),
    ...(resolved.apiKey ? { apiKey: resolved.apiKey } : {}),
  };
};

/** The model the flags, settings and session select (key not checked). */
function resolveRequested(
  command: Parameters<ChooseSummarizer>[0],
  context: Parameters<ChooseSummarizer>[1],
) {
  const { settings } = context;
  return resolveModel({
    ...(command.provider !== undefined ? { provider: command.provider } : {}),
    ...(command.model !== undefined ? { model: command.model } : {}),
    ...(command.baseUrl !== undefined ? { baseUrl: command.baseUrl } : {}),
    ...(settings.defaultProvider !== undefined ? { settingsProvider: settings.defaultProvider } : {}),
    ...(settings.defaultModel !== undefined ? { settingsModel: settings.defaultModel } : {}),
    sessionModel: context.sessionModel,
    customModels: context.customModels,
    env: context.env,
  });
}

/** With `--offline`: the selected model for thresholds, when it is known (no key needed). */
function sessionModelOf(
  command: Parameters<ChooseSummarizer>[0],
  context: Parameters<ChooseSummarizer>[1],
): { sessionModel?: Model } {
  try {
    return { sessionModel: resolveRequested(command, context).model };
  } catch {
    return {};
  }
}
