import fs from "node:fs";
import path from "node:path";

/** What a project folder would make arbor load: its `.arbor` files and the extensions they name. */
export interface ProjectConfig {
  /** The project folder, canonical (symlinks resolved): the key of its trust decision. */
  folder: string;
  /** `<folder>/.arbor/settings.json` when it exists. */
  settingsFile: string | undefined;
  /** `<folder>/.arbor/models.json` when it exists. */
  modelsFile: string | undefined;
  /**
   * The `extensions` entries of the settings file as written (paths relative to `.arbor/`), read
   * without validating the file; empty when it has none or cannot be parsed.
   */
  extensions: string[];
}

function canonical(folder: string): string {
  try {
    return fs.realpathSync(folder);
  } catch {
    return path.resolve(folder);
  }
}

function existingFile(file: string): string | undefined {
  try {
    return fs.statSync(file).isFile() ? file : undefined;
  } catch {
    return undefined;
  }
}

function namedExtensions(settingsFile: string | undefined): string[] {
  if (settingsFile === undefined) return [];
  try {
    const parsed = JSON.parse(fs.readFileSync(settingsFile, "utf8").replace(/^\uFEFF/, "")) as {
      extensions?: unknown;
    };
    const list = parsed?.extensions;
    return Array.isArray(list) ? list.filter((entry): entry is string => typeof entry === "string") : [];
  } catch {
    return [];
  }
}

/**
 * Looks at `<cwd>/.arbor/` for project configuration (settings, models, and the extensions the
 * settings name) without loading or validating any of it. Returns `undefined` when there is none, and
 * when `<cwd>/.arbor` is the Arbor home itself (`$ARBOR_HOME` is the user's own configuration, so for
 * `~` with the default home there is no project configuration). Never throws.
 */
export function findProjectConfig(options: { cwd: string; arborHome: string }): ProjectConfig | undefined {
  const folder = canonical(options.cwd);
  const projectDir = path.join(folder, ".arbor");
  if (canonical(projectDir) === canonical(options.arborHome)) return undefined;
  const settingsFile = existingFile(path.join(projectDir, "settings.json"));
  const modelsFile = existingFile(path.join(projectDir, "models.json"));
  if (settingsFile === undefined && modelsFile === undefined) return undefined;
  return { folder, settingsFile, modelsFile, extensions: namedExtensions(settingsFile) };
}

/**
 * One line naming what the project configuration holds, for messages:
 * `.arbor/settings.json (extensions ./x.mjs), .arbor/models.json`; empty when it holds nothing.
 */
export function describeProjectConfig(config: ProjectConfig): string {
  const parts: string[] = [];
  if (config.settingsFile !== undefined) {
    const extensions = config.extensions.length > 0 ? ` (extensions ${config.extensions.join(", ")})` : "";
    parts.push(`.arbor/settings.json${extensions}`);
  }
  if (config.modelsFile !== undefined) parts.push(".arbor/models.json");
  return parts.join(", ");
}
