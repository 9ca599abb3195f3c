import { CliError } from "../cli-error";

/**
 * A usage error for `arbor <command>`: one line naming what is wrong, then where to look
 * (`inspect: unknown option --bogus (see arbor inspect --help)`, printed after `arbor: `).
 * `command` is the subcommand, or "" for the agent itself. Exit code 2.
 */
export function usageError(command: string, message: string): CliError {
  return new CliError(
    "CLI_USAGE",
    `${command ? `${command}: ` : ""}${message} (see arbor${command ? ` ${command}` : ""} --help)`,
  );
}
