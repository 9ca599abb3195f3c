export type { LoadedSettings, LoadSettingsOptions } from "./settings/load-settings";
export { loadSettings, readSettingsFile, resolveArborHome } from "./settings/load-settings";
export { mergeSettings } from "./settings/merge-settings";
export type { CompactionModelOverride, Settings } from "./settings/settings";
export type { SettingsErrorCode } from "./settings/settings-error";
export { SettingsError } from "./settings/settings-error";
