import { CliError } from "../cli-error";
import type { CliIo } from "../cli-io";
import type { CliCommand } from "../parse-cli-args";

/** `arbor` without a command. */
export async function runInteractiveCommand(
  _command: Extract<CliCommand, { kind: "interactive" }>,
  _io: CliIo,
): Promise<number> {
  throw new CliError("CLI_USAGE", "the interactive mode is not available yet");
}
