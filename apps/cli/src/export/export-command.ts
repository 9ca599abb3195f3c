import { resolveArborHome } from "@arbor/runtime/settings";
import type { CliIo } from "../cli-io";
import { formatBytes } from "../format/format-bytes";
import { openSessionLocation } from "../sessions/open-session-location";
import type { ExportInput } from "../usage/export-usage";
import { exportSession } from "./export-session";

/**
 * `arbor export <session> [--leaf ID] [--html|--md|--jsonl] [-o FILE]`: writes the HTML page (default),
 * the Markdown text or the exact JSONL bytes of a session (a file or a database location), to `<session name>.html|.md` in the working folder, to FILE, or
 * to stdout with `-o -`. Opens the session read-only. Returns the exit code; throws user errors for
 * `reportError`.
 */
export async function runExportCommand(
  command: ExportInput,
  io: CliIo,
  arborVersion: string,
): Promise<number> {
  if (command.format === "jsonl") {
    const { exportSessionText } = await import("./export-session-text");
    const result = await exportSessionText(command.file, {
      output: command.output,
      cwd: io.cwd ?? process.cwd(),
    });
    io.stdout.write(`Exported ${result.lines} lines to ${result.file} (${formatBytes(result.bytes)})\n`);
    return 0;
  }
  const { store } = await openSessionLocation(command.file, {
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
