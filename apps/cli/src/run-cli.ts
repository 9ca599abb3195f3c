import { version } from "../package.json";
import type { CliIo } from "./cli-io";
import { HELP_TEXT } from "./help-text";
import { parseCliArgs } from "./parse-cli-args";
import { reportError } from "./report-error";

export type { CliIo } from "./cli-io";

/** The CLI's version (printed by `--version`), read from its package.json when the CLI is built. */
export const CLI_VERSION: string = version;

/**
 * Runs the CLI with the given arguments and returns the process exit code. Never throws: errors are
 * printed by {@link reportError} as one line on stderr. Commands are loaded on demand so that the
 * offline commands never load a provider SDK.
 */
export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  try {
    const command = parseCliArgs(args);
    switch (command.kind) {
      case "help":
        io.stdout.write(HELP_TEXT);
        return 0;
      case "version":
        io.stdout.write(`${CLI_VERSION}\n`);
        return 0;
      case "inspect": {
        const { runInspectCommand } = await import("./commands/inspect-command");
        return await runInspectCommand(command, io);
      }
      case "tree": {
        const { runTreeCommand } = await import("./commands/tree-command");
        return await runTreeCommand(command, io);
      }
      case "compact": {
        const { runCompactCommand } = await import("./commands/compact-command");
        const { chooseSummarizer } = await import("./commands/choose-summarizer");
        return await runCompactCommand(command, io, chooseSummarizer);
      }
      case "print": {
        const { runPrintCommand } = await import("./commands/print-command");
        return await runPrintCommand(command, io);
      }
      case "interactive": {
        const { runInteractiveCommand } = await import("./commands/interactive-command");
        return await runInteractiveCommand(command, io);
      }
    }
  } catch (error) {
    return reportError(error, io);
  }
}
