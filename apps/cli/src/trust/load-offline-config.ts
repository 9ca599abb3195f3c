import { resolveArborHome } from "@arbor/runtime";
import type { CliIo } from "../cli-io";
import { ignoredProjectWarning, savedProjectTrust } from "./decide-project-trust";
import { type CliConfig, loadCliConfig } from "./load-cli-config";

/**
 * The configuration of a command that cannot ask (`inspect`, `compact`): the user's settings, the
 * project's only in a folder trusted before (never asked, no flag); the user's models file (for
 * context windows), and with `projectModels` (a `compact` that calls a model) a trusted project's
 * too; never extensions. Prints the warnings (an ignored project configuration, one line) on stderr.
 * `fromFiles` is true when any settings file was read.
 * @throws like `loadCliConfig`; CliError `CLI_TRUST_STORE_INVALID`.
 */
export function loadOfflineConfig(
  io: CliIo,
  options: { projectModels: boolean },
): CliConfig & { fromFiles: boolean } {
  const cwd = io.cwd ?? process.cwd();
  const arborHome = resolveArborHome(io.env ?? process.env);
  const trust = savedProjectTrust({ cwd, arborHome });
  const fullNeeds = { models: options.projectModels ? "all" : "user", extensions: false } as const;
  const ignored = ignoredProjectWarning(trust, {
    needs: { models: options.projectModels, extensions: false },
    trustFlag: false,
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
