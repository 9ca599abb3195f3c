import { version } from "../../package.json";
import { CliError } from "../cli-error";
import type { SlashCommandHandler } from "../interactive/interactive-context";
import { exportSession } from "./export-session";

/**
 * `/export [--md] [FILE]`: exports the current session at the current leaf, as the HTML page (the
 * default) or as Markdown, to FILE or `<session file name>.html|.md` in the working folder, and
 * prints where. A failure is printed; the session goes on.
 */
export const exportSlashCommand: SlashCommandHandler = async (context, args) => {
  const words = args.split(/\s+/).filter(Boolean);
  const markdown = words.includes("--md");
  const rest = words.filter((word) => word !== "--md" && word !== "--html");
  if (rest.length > 1 || rest[0] === "-") {
    context.print("Usage: /export [--md] [FILE]");
    return;
  }
  try {
    const result = exportSession(context.store, {
      format: markdown ? "md" : "html",
      output: rest[0],
      cwd: context.environment.cwd,
      arborVersion: version,
      stdout: { write: () => true },
    });
    context.print(`Exported the session to ${result.file}`);
  } catch (error) {
    if (!CliError.isInstance(error)) throw error;
    context.print(`Export failed: ${error.message}`);
  }
};
