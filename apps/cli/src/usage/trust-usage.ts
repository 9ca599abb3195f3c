import type { CommandUsage } from "./command-usage";
import type { ParsedOptions } from "./parse-options";
import { usageError } from "./usage-error";

/** The input of `arbor trust` and `arbor untrust`. */
export interface TrustInput {
  trust: "trusted" | "untrusted";
  folder: string | undefined;
  list: boolean;
}

const EXPLANATION = `A folder's project configuration (.arbor/settings.json, .arbor/models.json and the extensions
named there) is loaded only once the folder is trusted. The interactive mode asks once and remembers
the answer; print mode, --json and the offline commands ignore an untrusted folder's configuration
with one warning line (--trust-project loads it for one run, nothing saved). Decisions are saved in
$ARBOR_HOME/trusted-folders.json for the folder's real path; a decision for a folder below wins over
its ancestor's. Context files (AGENTS.md, CLAUDE.md) are plain text for the model and load either way.`;

function toTrustInput(name: "trust" | "untrust", parsed: ParsedOptions): TrustInput {
  const [folder, extra] = parsed.positionals;
  if (extra !== undefined) throw usageError(name, `unexpected argument "${extra}"`);
  const list = parsed.values.list === true;
  if (list && folder !== undefined) throw usageError(name, "--list takes no folder");
  return { trust: name === "trust" ? "trusted" : "untrusted", folder, list };
}

async function runTrust(input: TrustInput, io: Parameters<CommandUsage<TrustInput>["run"]>[1]) {
  const { runTrustCommand } = await import("../commands/trust-command");
  return runTrustCommand(input, io);
}

/** `arbor trust [DIR]`, `arbor trust --list`: options and help. */
export const trustUsage: CommandUsage<TrustInput> = {
  name: "trust",
  synopsis: "trust [DIR] | --list",
  summary: "load the project configuration of DIR (default: here) and below",
  help: `Usage: arbor trust [DIR]
       arbor trust --list

Trusts DIR (default: this folder) and the folders below it: arbor loads their project configuration.

${EXPLANATION}

Options:
  --list        the saved decisions
  -h, --help    this help
`,
  options: { list: { type: "boolean" } },
  toInput: (parsed) => toTrustInput("trust", parsed),
  run: runTrust,
};

/** `arbor untrust [DIR]`: options and help. */
export const untrustUsage: CommandUsage<TrustInput> = {
  name: "untrust",
  synopsis: "untrust [DIR]",
  summary: "ignore the project configuration of DIR (default: here) and below",
  help: `Usage: arbor untrust [DIR]

Saves that DIR (default: this folder) and the folders below it are not trusted: arbor ignores their
project configuration (this overrides a trust saved for an ancestor).

${EXPLANATION}

Options:
  -h, --help    this help
`,
  options: {},
  toInput: (parsed) => toTrustInput("untrust", parsed),
  run: runTrust,
};
