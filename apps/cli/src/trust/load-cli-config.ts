import path from "node:path";
import {
  loadSettings,
  readSettingsFile,
  type Settings,
  type UnknownSettingsKey,
} from "@arbor/runtime/settings";
import { resolveExtensionPaths } from "../agent/resolve-extension-paths";
import { type CustomModelDefinition, loadCustomModels } from "../models/load-models-file";

/** What a command reads besides the settings. */
export interface CliConfigNeeds {
  /**
   * Models files: `all` reads the user's and, in a trusted folder, the project's; `user` the user's
   * only (the offline commands, which never load a project's models); `none` neither.
   */
  models: "all" | "user" | "none";
  /** The extension files the settings name. */
  extensions: boolean;
}

/** The configuration a command runs with. */
export interface CliConfig {
  /** The user's settings merged with the project's (the latter only in a trusted folder). */
  settings: Settings;
  /** The settings files read, the user's first. */
  settingsFiles: string[];
  /** Top-level keys of the settings files read that are not Arbor settings. */
  unknownSettingsKeys: UnknownSettingsKey[];
  /** Declared models (see `needs.models`). */
  customModels: CustomModelDefinition[];
  /** Absolute paths of the extension files to load (empty unless `needs.extensions`). */
  extensions: string[];
}

/**
 * Loads the CLI's configuration: `$ARBOR_HOME/settings.json` and `models.json` always,
 * `<cwd>/.arbor/settings.json`, `.arbor/models.json` and the extensions named there only when
 * `projectTrusted` (decided by `decideProjectTrust`, the one place that decides). `allowedApiKeyEnv`
 * is taken from the user's own settings file only; one in the project's is ignored with a warning.
 * Offline commands pass `needs: { models: "user", extensions: false }`: no project models, no
 * extensions. Warnings
 * (one line each, ending with a newline) go to `warn` as soon as they are found, before a later error.
 *
 * @throws SettingsError for an invalid settings file, CliError `CLI_MODELS_FILE_INVALID` /
 * `CLI_PROJECT_MODEL_REFUSED` for a models file (each naming the file).
 */
export function loadCliConfig(options: {
  cwd: string;
  arborHome: string;
  projectTrusted: boolean;
  needs: CliConfigNeeds;
  warn: (line: string) => void;
}): CliConfig {
  const { cwd, arborHome, projectTrusted, needs, warn } = options;
  const loaded = loadSettings({ cwd, arborHome, ignoreProject: !projectTrusted });
  const userFile = path.join(arborHome, "settings.json");
  const userSettings = loaded.files.includes(userFile) ? readSettingsFile(userFile) : undefined;
  const allowedApiKeyEnv = userSettings?.allowedApiKeyEnv ?? [];
  const settings: Settings = { ...loaded.settings };
  if (userSettings?.allowedApiKeyEnv === undefined) delete settings.allowedApiKeyEnv;
  else settings.allowedApiKeyEnv = userSettings.allowedApiKeyEnv;
  const projectFile = loaded.files.find((file) => file !== userFile);
  if (projectFile !== undefined && readSettingsFile(projectFile)?.allowedApiKeyEnv !== undefined) {
    warn(
      `arbor: warning: ${projectFile}: "allowedApiKeyEnv" is ignored in a project's settings (only your own ${userFile} may allow key variables)\n`,
    );
  }
  return {
    settings,
    settingsFiles: loaded.files,
    unknownSettingsKeys: loaded.unknownKeys,
    customModels:
      needs.models === "none"
        ? []
        : loadCustomModels({
            arborHome,
            cwd,
            includeProject: needs.models === "all" && projectTrusted,
            allowedApiKeyEnv,
          }),
    extensions: needs.extensions
      ? resolveExtensionPaths({ arborHome, cwd, includeProject: projectTrusted })
      : [],
  };
}
