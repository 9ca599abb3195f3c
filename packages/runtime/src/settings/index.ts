/**
 * `@arbor/runtime/settings`: Arbor's settings files (find, read, validate, merge) and how compaction
 * settings fit a model's window, without the rest of the runtime: importing it loads neither the
 * session store, compaction, extensions nor the agent loop. For code that needs only the settings,
 * such as the CLI's offline commands.
 */
export type { EffectiveCompactionSettings } from "./fit-compaction-settings";
export { fitCompactionSettings } from "./fit-compaction-settings";
export type { LoadedSettings, LoadSettingsOptions, UnknownSettingsKey } from "./load-settings";
export { loadSettings, readSettingsFile, resolveArborHome } from "./load-settings";
export { mergeSettings } from "./merge-settings";
export type { CompactionModelOverride, Settings } from "./settings";
export type { SettingsErrorCode } from "./settings-error";
export { SettingsError } from "./settings-error";
