import { resolveCompactionSettings } from "@arbor/compaction";
import { listModels } from "@arbor/providers";
import {
  type EffectiveCompactionSettings,
  fitCompactionSettings,
  type Settings,
} from "@arbor/runtime/settings";
import type { SessionModelRef } from "@arbor/session-store";
import { formatInteger } from "../format/format-number";
import type { CustomModelDefinition } from "../models/load-models-file";

/** The compaction settings an offline command applies to a session, and where they came from. */
export interface OfflineCompaction {
  /** The recent-token budget of the cut. */
  keepRecentTokens: number;
  /** Where it came from, for the text output ("from --keep-recent-tokens", "the default", ...). */
  keepRecentTokensSource: string;
  /** `reserveTokens` in effect for the session's model (scaled like the agent's when it does not fit). */
  reserveTokens: number;
  /** The session model's context window; `null` when the model is unknown (not built in, not in your models file). */
  contextWindow: number | null;
  /** The configured values when they did not fit the window and were scaled down; else `null`. */
  scaledFrom: NonNullable<EffectiveCompactionSettings["scaledFrom"]> | null;
}

function contextWindowOf(
  model: SessionModelRef | null,
  customModels: readonly CustomModelDefinition[],
): number | null {
  if (model === null) return null;
  const declared = customModels.find(
    (candidate) => candidate.id === model.modelId && candidate.provider === model.provider,
  );
  if (declared !== undefined) return declared.contextWindow;
  return (
    listModels(model.provider).find((candidate) => candidate.id === model.modelId)?.contextWindow ?? null
  );
}

/**
 * The compaction settings of an offline command (`inspect`, `compact`), as the agent would apply them
 * to the session's model: the settings (loaded by the caller) with the model's override, fitted to
 * its context window when the model is known (built in, or in the user's models file) the way the
 * runtime fits them (`fitCompactionSettings`). `--keep-recent-tokens` replaces keepRecentTokens as
 * given. Without settings files, pi's defaults (20000 kept).
 * @throws CompactionSettingsError for an invalid value (naming the key).
 */
export function resolveOfflineCompaction(
  flag: number | undefined,
  options: {
    settings: Settings;
    fromFiles: boolean;
    model: SessionModelRef | null;
    customModels: readonly CustomModelDefinition[];
  },
): OfflineCompaction {
  const model = options.model ? { provider: options.model.provider, id: options.model.modelId } : undefined;
  const configured = resolveCompactionSettings(options.settings.compaction, model);
  const contextWindow = contextWindowOf(options.model, options.customModels);
  const effective: EffectiveCompactionSettings =
    contextWindow === null ? configured : fitCompactionSettings(configured, contextWindow);
  const scaledFrom = effective.scaledFrom ?? null;
  let source: string;
  if (flag !== undefined) source = "from --keep-recent-tokens";
  else if (scaledFrom !== null && effective.keepRecentTokens !== scaledFrom.keepRecentTokens) {
    source = `scaled to fit the ${formatInteger(scaledFrom.contextWindow)}-token window`;
  } else {
    source = options.fromFiles && configured.keepRecentTokens !== 20000 ? "from the settings" : "the default";
  }
  return {
    keepRecentTokens: flag ?? effective.keepRecentTokens,
    keepRecentTokensSource: source,
    reserveTokens: effective.reserveTokens,
    contextWindow,
    scaledFrom,
  };
}
