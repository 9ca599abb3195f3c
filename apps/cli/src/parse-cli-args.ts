import { agentUsage } from "./usage/agent-usage";
import { type ParsedCommandLine, parseCommandLine } from "./usage/command-usage";
import { SUBCOMMAND_USAGES } from "./usage/subcommand-usages";
import { usageError } from "./usage/usage-error";

export type { ParsedCommandLine } from "./usage/command-usage";

/**
 * Parses the command line: `--help`/`-h`/`help [command]`, `--version`/`-v`, a subcommand (each
 * parsed by its own usage module, `--help` included), else the agent modes.
 * Pure: reads nothing but `args`.
 * @throws CliError `CLI_USAGE` (one line naming the problem and the `--help` to read).
 */
export function parseCliArgs(args: readonly string[]): ParsedCommandLine {
  const [first, ...rest] = args;
  if (first === "--version" || first === "-v") return { kind: "version" };
  if (first === "help") {
    const [topic, extra] = rest;
    if (topic === undefined) return { kind: "help", text: agentUsage.help };
    const usage = SUBCOMMAND_USAGES.find((candidate) => candidate.name === topic);
    if (!usage || extra !== undefined)
      throw usageError("", `no command "${rest.join(" ")}" to show help for`);
    return { kind: "help", text: usage.help };
  }
  const usage = SUBCOMMAND_USAGES.find((candidate) => candidate.name === first);
  return usage ? parseCommandLine(usage, rest) : parseCommandLine(agentUsage, args);
}
