import type { CliIo } from "../cli-io";
import { type OptionTable, type ParsedOptions, parseOptions } from "./parse-options";

/**
 * Everything about one subcommand's command line, in one module per subcommand (`inspect-usage.ts`,
 * `sessions-usage.ts`, …): its options, its `--help` text, how the parsed options become the
 * command's input, and how to run it (the implementation is imported on demand, so the offline
 * commands never load a provider SDK). New subcommands add a module and one line in
 * `subcommand-usages.ts`.
 */
export interface CommandUsage<Input> {
  /** The word after `arbor` (`inspect`). */
  readonly name: string;
  /** Synopsis for the main help's command list (`inspect <session>`). */
  readonly synopsis: string;
  /** One line for the main help's command list. */
  readonly summary: string;
  /** The full `arbor <name> --help` text (ends with a newline). */
  readonly help: string;
  readonly options: OptionTable;
  /**
   * Turns parsed options into the command's input.
   * @throws CliError `CLI_USAGE` (via `usageError`) for missing or extra arguments and bad values.
   */
  toInput(parsed: ParsedOptions): Input;
  /** Runs the command; resolves with the exit code. May throw user errors for `reportError`. */
  run(input: Input, io: CliIo): Promise<number>;
}

/** A parsed command line, ready to run. */
export type ParsedCommandLine =
  | { kind: "help"; text: string }
  | { kind: "version" }
  | { kind: "command"; name: string; input: unknown; run: (io: CliIo) => Promise<number> };

/**
 * Parses `args` (what follows the command name) for `usage`: `--help` anywhere before `--` gives the
 * help text (other arguments are then not checked).
 * @throws CliError `CLI_USAGE`.
 */
export function parseCommandLine<Input>(
  usage: CommandUsage<Input>,
  args: readonly string[],
): ParsedCommandLine {
  const parsed = parseOptions(args, usage.options, usage.name);
  if (parsed.help) return { kind: "help", text: usage.help };
  const input = usage.toInput(parsed);
  return { kind: "command", name: usage.name, input, run: (io) => usage.run(input, io) };
}
