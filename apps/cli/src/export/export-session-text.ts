import fs from "node:fs";
import path from "node:path";
import { CliError } from "../cli-error";
import { isDatabaseLocation } from "../sessions/is-database-location";

/** What {@link exportSessionText} wrote. */
export interface ExportSessionTextResult {
  /** The file written (absolute). */
  file: string;
  bytes: number;
  /** Lines of the session text (header included). */
  lines: number;
}

/**
 * `arbor export <location> --jsonl`: the session's exact bytes as a JSONL file, from a session file
 * or from a PostgreSQL location (what was imported or written there, byte for byte), to `output`
 * (default `<session id>.jsonl` in `cwd`). Written through a temporary file and a rename. Never to
 * stdout: what the CLI prints is made inert and redacted, so it would not be the exact bytes.
 *
 * @throws CliError `CLI_USAGE` (output is the session file itself, or `-`), `CLI_FILE_NOT_FOUND`,
 *   `CLI_EXPORT_FAILED`; session-store errors for a database location.
 */
export async function exportSessionText(
  location: string,
  options: { output: string | undefined; cwd: string },
): Promise<ExportSessionTextResult> {
  if (options.output === "-") {
    throw new CliError(
      "CLI_USAGE",
      "export --jsonl -o -: the JSONL copy goes to a file (-o FILE): what arbor prints is made inert and redacted, so stdout would not get the exact bytes",
    );
  }
  let bytes: Buffer;
  let sessionId: string | undefined;
  if (isDatabaseLocation(location)) {
    const { exportPostgresSession, parsePostgresLocation } = await import("@arbor/session-store/postgres");
    const parsed = parsePostgresLocation(location);
    if (parsed.sessionId === undefined) {
      throw new CliError("CLI_USAGE", `${location}: no session id (postgresql://host/database#<session-id>)`);
    }
    sessionId = parsed.sessionId;
    bytes = Buffer.from(await exportPostgresSession(parsed.target, parsed.sessionId), "utf8");
  } else {
    try {
      bytes = fs.readFileSync(location);
    } catch (error) {
      throw new CliError(
        "CLI_FILE_NOT_FOUND",
        `${location}: cannot read the session file (${(error as Error).message})`,
      );
    }
    sessionId = path.basename(location).replace(/\.jsonl$/i, "");
  }
  const text = bytes.toString("utf8");
  const lines = text === "" ? 0 : text.replace(/\n$/, "").split("\n").length;
  const file = path.resolve(options.cwd, options.output ?? `${sessionId}.jsonl`);
  if (!isDatabaseLocation(location) && path.resolve(options.cwd, location) === file) {
    throw new CliError(
      "CLI_USAGE",
      `-o ${options.output ?? file}: that is the session file itself; choose another output`,
    );
  }
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temporary, bytes, { mode: 0o644 });
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw new CliError("CLI_EXPORT_FAILED", `${file}: cannot write the export (${(error as Error).message})`);
  }
  return { file, bytes: bytes.length, lines };
}
