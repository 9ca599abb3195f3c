import { resolveArborHome } from "@arbor/runtime";
import type { CliIo } from "../cli-io";
import { formatBytes } from "../format/format-bytes";
import { openSessionFile } from "../sessions/open-session-file";
import type { ExportInput } from "../usage/export-usage";
import { exportSession } from "./export-session";

/**
 * `arbor export <session.jsonl> [--leaf ID] [--html|--md] [-o FILE]`: writes the HTML page (default)
 * or the Markdown text of a session, to `<session name>.html|.md` in the working folder, to FILE, or
 * to stdout with `-o -`. Opens the session read-only. Returns the exit code; throws user errors for
 * `reportError`.
 */
export async function runExportCommand(
  command: ExportInput,
  io: CliIo,
  arborVersion: string,
): Promise<number> {
  const { store } = openSessionFile(command.file, {
    readOnly: true,
    arborHome: resolveArborHome(io.env ?? process.env),
  });
  try {
    const result = exportSession(store, {
      format: command.format,
      leafId: command.leafId,
      output: command.output,
      cwd: io.cwd ?? process.cwd(),
      arborVersion,
      stdout: io.stdout,
    });
    if (result.file === undefined) return 0;
    const what =
      command.format === "html" ? `${result.entries} entries` : `the path of ${result.pathLength} entries`;
    io.stdout.write(`Exported ${what} to ${result.file} (${formatBytes(result.bytes)})\n`);
    return 0;
  } finally {
    store.close();
  }
}
