import path from "node:path";
import { readSettingsFile } from "@arbor/runtime/settings";

/**
 * The extension files the settings ask for, as absolute paths. Like every array setting, a project's
 * `extensions` replaces the global one; relative paths are resolved against the folder of the settings
 * file that lists them. The project's settings are read only with `includeProject` (a trusted
 * folder). Throws like `readSettingsFile` for an invalid file.
 */
export function resolveExtensionPaths(options: {
  arborHome: string;
  cwd: string;
  includeProject: boolean;
}): string[] {
  const files = [path.join(options.arborHome, "settings.json")];
  if (options.includeProject) files.push(path.join(options.cwd, ".arbor", "settings.json"));
  let result: string[] = [];
  for (const file of files) {
    const extensions = readSettingsFile(file)?.extensions;
    if (extensions !== undefined) result = extensions.map((entry) => path.resolve(path.dirname(file), entry));
  }
  return result;
}
