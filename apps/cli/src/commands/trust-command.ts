import fs from "node:fs";
import path from "node:path";
import { resolveArborHome } from "@arbor/runtime/settings";
import { CliError } from "../cli-error";
import type { CliIo } from "../cli-io";
import { describeProjectConfig, findProjectConfig } from "../trust/find-project-config";
import { findSavedTrust, listSavedTrust, saveFolderTrust, trustStorePath } from "../trust/trust-store";
import type { TrustInput } from "../usage/trust-usage";

type TrustCommand = TrustInput;

function canonicalFolder(folder: string): string {
  let real: string;
  try {
    real = fs.realpathSync(folder);
  } catch {
    throw new CliError("CLI_USAGE", `${folder}: no such folder`);
  }
  if (!fs.statSync(real).isDirectory()) throw new CliError("CLI_USAGE", `${folder}: not a folder`);
  return real;
}

/**
 * `arbor trust [dir]`, `arbor untrust [dir]`, `arbor trust --list`: saves (or lists) the decision
 * whether the project configuration of a folder (default: the working folder) and of the folders
 * below it is loaded. The decision is saved for the folder's canonical path in
 * `$ARBOR_HOME/trusted-folders.json`; a decision for a folder below wins over its ancestor's.
 * Returns 0; throws CliError `CLI_USAGE` for a missing folder, `CLI_TRUST_STORE_INVALID`.
 */
export function runTrustCommand(command: TrustCommand, io: CliIo): number {
  const env = io.env ?? process.env;
  const arborHome = resolveArborHome(env);
  if (command.list) {
    const saved = listSavedTrust(arborHome);
    if (saved.length === 0) {
      io.stdout.write(`No folder decisions saved (${trustStorePath(arborHome)}).\n`);
      return 0;
    }
    for (const entry of saved) io.stdout.write(`${entry.trust.padEnd(9)} ${entry.folder}\n`);
    return 0;
  }
  const cwd = io.cwd ?? process.cwd();
  const folder = canonicalFolder(path.resolve(cwd, command.folder ?? "."));
  saveFolderTrust(arborHome, folder, command.trust);
  const project = findProjectConfig({ cwd: folder, arborHome });
  const holds =
    project === undefined ? "it has no .arbor configuration yet" : `it has ${describeProjectConfig(project)}`;
  if (command.trust === "trusted") {
    io.stdout.write(
      `Trusted ${folder} and the folders below it: arbor loads their .arbor/settings.json, .arbor/models.json and the extensions named there (${holds}).\n`,
    );
  } else {
    const parent = findSavedTrust(arborHome, path.dirname(folder));
    const note = parent?.trust === "trusted" ? ` (this overrides the trust saved for ${parent.folder})` : "";
    io.stdout.write(
      `Not trusting ${folder} and the folders below it${note}: arbor ignores their project configuration (${holds}).\n`,
    );
  }
  return 0;
}
