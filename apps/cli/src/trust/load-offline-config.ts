import { resolveArborHome } from "@arbor/runtime/settings";
import type { CliIo } from "../cli-io";
import { ignoredProjectWarning, savedProjectTrust } from "./decide-project-trust";
import { type CliConfig, loadCliConfig } from "./load-cli-config";

/** What a command that cannot ask loads besides the settings. */
export interface OfflineConfigOptions {
  /** A trusted project's models file too (a `compact` that calls a model). */
  projectModels: boolean;
  /** The extension files the settings name (`compact` without `--no-extensions`). Default false. */
  extensions?: boolean;
  /** `--trust-project` was given (this run only). Default false. */
  trustFlag?: boolean;
}

/**
 * The configuration of a command that cannot ask (`inspect`, `compact`): the user's settings, the
 * project's only in a folder trusted before or with `trustFlag` (never asked); the user's models
 * file (for context windows), and with `projectModels` a trusted project's too; the extensions the
 * settings name only with `extensions` (the user's always, the project's only when trusted). Prints
 * the warnings (an ignored project configuration, one line) on stderr. `fromFiles` is true when any
 * settings file was read.
 * @throws like `loadCliConfig`; CliError `CLI_TRUST_STORE_INVALID`.
 */
export function loadOfflineConfig(
  io: CliIo,
  options: OfflineConfigOptions,
): CliConfig & { fromFiles: boolean } {
  const cwd = io.cwd ?? process.cwd();
  const arborHome = resolveArborHome(io.env ?? process.env);
  const trustFlag = options.trustFlag === true;
  const extensions = options.extensions === true;
  const trust = savedProjectTrust({ cwd, arborHome, trustFlag });
  const fullNeeds = { models: options.projectModels ? "all" : "user", extensions } as const;
  const ignored = ignoredProjectWarning(trust, {
    needs: { models: options.projectModels, extensions },
    trustFlag: extensions,
  });
  if (ignored !== undefined) io.stderr.write(ignored);
  const config = loadCliConfig({
    cwd,
    arborHome,
    projectTrusted: trust.trusted,
    needs: fullNeeds,
    warn: (line) => io.stderr.write(line),
  });
  return { ...config, fromFiles: config.settingsFiles.length > 0 };
}
