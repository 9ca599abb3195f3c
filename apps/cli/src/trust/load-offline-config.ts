import { resolveArborHome } from "@arbor/runtime";
import type { CliIo } from "../cli-io";
import { ignoredProjectWarning, savedProjectTrust } from "./decide-project-trust";
import { type CliConfig, loadCliConfig } from "./load-cli-config";

/**
 * The configuration of a command that cannot ask (`inspect`, `compact`): the user's settings, the
 * project's only in a folder trusted before (never asked, no flag), and with `models` the models
 * files; never extensions. Prints the warnings (an ignored project configuration, one line) on
 * stderr. `fromFiles` is true when any settings file was read.
 * @throws like `loadCliConfig`; CliError `CLI_TRUST_STORE_INVALID`.
 */
export function loadOfflineConfig(io: CliIo, needs: { models: boolean }): CliConfig & { fromFiles: boolean } {
  const cwd = io.cwd ?? process.cwd();
  const arborHome = resolveArborHome(io.env ?? process.env);
  const trust = savedProjectTrust({ cwd, arborHome });
  const fullNeeds = { models: needs.models, extensions: false };
  const ignored = ignoredProjectWarning(trust, { needs: fullNeeds, trustFlag: false });
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
