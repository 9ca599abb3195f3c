import { resolveCompactionSettings } from "@arbor/compaction";
import type { Settings } from "@arbor/runtime";
import type { SessionModelRef } from "@arbor/session-store";

/** The keepRecentTokens budget of an offline command and where it came from (for the text output). */
export interface KeepRecentTokens {
  value: number;
  source: string;
}

/**
 * `--keep-recent-tokens` when given; otherwise the settings (loaded by the caller: the user's, and
 * the project's in a trusted folder), with the per-model override of the session's model, otherwise
 * pi's default 20000.
 * @throws CompactionSettingsError for an invalid value (naming the key).
 */
export function resolveKeepRecentTokens(
  flag: number | undefined,
  options: { settings: Settings; fromFiles: boolean; model: SessionModelRef | null },
): KeepRecentTokens {
  if (flag !== undefined) return { value: flag, source: "from --keep-recent-tokens" };
  const model = options.model ? { provider: options.model.provider, id: options.model.modelId } : undefined;
  const resolved = resolveCompactionSettings(options.settings.compaction, model);
  const fromSettings = options.fromFiles && resolved.keepRecentTokens !== 20000;
  return {
    value: resolved.keepRecentTokens,
    source: fromSettings ? "from the settings" : "the default",
  };
}
