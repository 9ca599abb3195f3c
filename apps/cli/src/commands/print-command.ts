import { CliError } from "../cli-error";
import type { CliIo } from "../cli-io";
import type { CliCommand } from "../parse-cli-args";

/** `arbor -p "prompt"`. */
export async function runPrintCommand(
  _command: Extract<CliCommand, { kind: "print" }>,
  _io: CliIo,
): Promise<number> {
  throw new CliError("CLI_USAGE", "print mode is not available yet");
}
