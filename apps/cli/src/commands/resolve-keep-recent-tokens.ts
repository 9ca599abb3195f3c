import { resolveCompactionSettings } from "@arbor/compaction";
import { loadSettings } from "@arbor/runtime";
import type { SessionModelRef } from "@arbor/session-store";

/** The keepRecentTokens budget of an offline command and where it came from (for the text output). */
export interface KeepRecentTokens {
  value: number;
  source: string;
}

/**
 * `--keep-recent-tokens` when given; otherwise the settings files (global then project, with the
 * per-model override of the session's model), otherwise pi's default 20000.
 * @throws SettingsError / CompactionSettingsError for an invalid settings file (naming file and key).
 */
export function resolveKeepRecentTokens(
  flag: number | undefined,
  options: { cwd: string; arborHome: string; model: SessionModelRef | null },
): KeepRecentTokens {
  if (flag !== undefined) return { value: flag, source: "from --keep-recent-tokens" };
  const { settings, files } = loadSettings({ cwd: options.cwd, arborHome: options.arborHome });
  const model = options.model ? { provider: options.model.provider, id: options.model.modelId } : undefined;
  const resolved = resolveCompactionSettings(settings.compaction, model);
  const fromSettings = files.length > 0 && resolved.keepRecentTokens !== 20000;
  return {
    value: resolved.keepRecentTokens,
    source: fromSettings ? "from the settings" : "the default",
  };
}
