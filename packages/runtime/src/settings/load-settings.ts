import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { mergeSettings } from "./merge-settings";
import type { Settings } from "./settings";
import { SettingsError } from "./settings-error";
import { settingsFileSchema } from "./settings-schema";

/** Where settings are read from. */
export interface LoadSettingsOptions {
  /** Project folder; its `.arbor/settings.json` is the project scope. Default `process.cwd()`. */
  cwd?: string;
  /** Arbor home folder; its `settings.json` is the global scope. Default `$ARBOR_HOME` or `~/.arbor`. */
  arborHome?: string;
  /** Skip the project scope (for untrusted folders). Default `false`. */
  ignoreProject?: boolean;
}

/** A top-level key of a settings file that is not an Arbor setting. */
export interface UnknownSettingsKey {
  /** The settings file. */
  filePath: string;
  /** The key as written. */
  key: string;
}

/** The merged settings and the files they came from. */
export interface LoadedSettings {
  settings: Settings;
  /** Files that existed and were read, global first. */
  files: string[];
  /**
   * Top-level keys that are not Arbor settings, per file, in file order. They stay in `settings`
   * (an extension may read its configuration from there, see `api.settings`); a key that no
   * extension reads is most likely a typo, and has no effect.
   */
  unknownKeys: UnknownSettingsKey[];
}

let knownKeys: ReadonlySet<string> | undefined;

/** The top-level keys of the settings schema (built, with zod, the first time a settings file is read). */
function isKnownKey(key: string): boolean {
  knownKeys ??= new Set(Object.keys(settingsFileSchema().shape));
  return knownKeys.has(key);
}

/** Returns the Arbor home folder: `$ARBOR_HOME` when set, else `~/.arbor`. */
export function resolveArborHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.ARBOR_HOME;
  return fromEnv && fromEnv.length > 0 ? path.resolve(fromEnv) : path.join(os.homedir(), ".arbor");
}

function describeValue(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * Reads and validates one settings file. A missing file yields `undefined`.
 *
 * @throws SettingsError `SETTINGS_PARSE_FAILED` (not JSON, or not an object), `SETTINGS_INVALID` (a key
 * with a wrong type or value: the message names the file and the dotted key), `SETTINGS_READ_FAILED`.
 */
export function readSettingsFile(filePath: string): Settings | undefined {
  let text: string;
  try {
    text = fs.readFileSync(filePath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new SettingsError(
      "SETTINGS_READ_FAILED",
      filePath,
      `${filePath}: cannot read settings (${(error as Error).message})`,
      undefined,
      error,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new SettingsError(
      "SETTINGS_PARSE_FAILED",
      filePath,
      `${filePath}: not valid JSON (${(error as Error).message})`,
      undefined,
      error,
    );
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new SettingsError("SETTINGS_PARSE_FAILED", filePath, `${filePath}: settings must be a JSON object`);
  }
  const result = settingsFileSchema().safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    const keyPath = (issue?.path ?? []).map(String).join(".");
    let value: unknown = parsed;
    for (const key of issue?.path ?? [])
      value = (value as Record<PropertyKey, unknown> | undefined)?.[key as PropertyKey];
    const what =
      issue?.code === "unrecognized_keys"
        ? `unknown key(s) ${issue.keys.join(", ")}`
        : `${describeValue(value)}: ${issue?.message ?? "invalid"}`;
    throw new SettingsError(
      "SETTINGS_INVALID",
      filePath,
      `${filePath}: invalid setting ${keyPath || "(root)"}: ${what}`,
      keyPath,
    );
  }
  return parsed as Settings;
}

/**
 * Loads the global then the project settings file and merges them (project wins, see
 * {@link mergeSettings}), and lists the top-level keys that are not Arbor settings. Missing files
 * are fine; invalid ones throw {@link SettingsError}.
 */
export function loadSettings(options: LoadSettingsOptions = {}): LoadedSettings {
  const globalFile = path.join(options.arborHome ?? resolveArborHome(), "settings.json");
  const projectFile = path.join(path.resolve(options.cwd ?? process.cwd()), ".arbor", "settings.json");
  const candidates =
    options.ignoreProject || projectFile === globalFile ? [globalFile] : [globalFile, projectFile];
  let settings: Settings = {};
  const files: string[] = [];
  const unknownKeys: UnknownSettingsKey[] = [];
  for (const file of candidates) {
    const scoped = readSettingsFile(file);
    if (scoped === undefined) continue;
    files.push(file);
    for (const key of Object.keys(scoped)) if (!isKnownKey(key)) unknownKeys.push({ filePath: file, key });
    settings = mergeSettings(settings, scoped);
  }
  return { settings, files, unknownKeys };
}
