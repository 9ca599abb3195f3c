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
  if (!isDatabaseLocation(location)) {
    const file = path.resolve(
      options.cwd,
      options.output ?? `${path.basename(location).replace(/\.jsonl$/i, "")}.jsonl`,
    );
    if (path.resolve(options.cwd, location) === file) {
      throw new CliError(
        "CLI_USAGE",
        `-o ${options.output ?? file}: that is the session file itself; choose another output`,
      );
    }
    return writeAtomically(file, (temporary) => copyCountingLines(location, temporary));
  }
  const { exportPostgresSession, parsePostgresLocation } = await import("@arbor/session-store/postgres");
  const parsed = parsePostgresLocation(location);
  if (parsed.sessionId === undefined) {
    throw new CliError("CLI_USAGE", `${location}: no session id (postgresql://host/database#<session-id>)`);
  }
  const text = await exportPostgresSession(parsed.target, parsed.sessionId);
  const bytes = Buffer.from(text, "utf8");
  const file = path.resolve(options.cwd, options.output ?? `${parsed.sessionId}.jsonl`);
  return writeAtomically(file, (temporary) => {
    fs.writeFileSync(temporary, bytes, { mode: 0o644 });
    return { bytes: bytes.length, lines: lineCount(bytes.length, countNewlines(bytes), bytes.at(-1) ?? -1) };
  });
}

/** Bytes copied at a time from a session file. */
const COPY_BYTES = 1 << 20;

/**
 * Writes `file` through a temporary file beside it and a rename (a failed export leaves nothing);
 * `write` fills the temporary file and says what it wrote.
 */
function writeAtomically(
  file: string,
  write: (temporary: string) => { bytes: number; lines: number },
): ExportSessionTextResult {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const written = write(temporary);
    fs.renameSync(temporary, file);
    return { file, ...written };
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    if (CliError.isInstance(error)) throw error;
    throw new CliError("CLI_EXPORT_FAILED", `${file}: cannot write the export (${(error as Error).message})`);
  }
}

/**
 * Copies the session file `from` to `to` a megabyte at a time (a session of any size, never held
 * whole), counting its lines on the way.
 */
function copyCountingLines(from: string, to: string): { bytes: number; lines: number } {
  const unreadable = (error: unknown) =>
    new CliError("CLI_FILE_NOT_FOUND", `${from}: cannot read the session file (${(error as Error).message})`);
  let input: number;
  try {
    input = fs.openSync(from, "r");
  } catch (error) {
    throw unreadable(error);
  }
  try {
    const output = fs.openSync(to, "w", 0o644);
    try {
      const buf = Buffer.allocUnsafe(COPY_BYTES);
      let bytes = 0;
      let newlines = 0;
      let last = -1;
      for (;;) {
        let read: number;
        try {
          read = fs.readSync(input, buf, 0, buf.length, null);
        } catch (error) {
          throw unreadable(error);
        }
        if (read === 0) break;
        const view = buf.subarray(0, read);
        newlines += countNewlines(view);
        for (let written = 0; written < read; ) written += fs.writeSync(output, view, written);
        bytes += read;
        last = view[read - 1] as number;
      }
      return { bytes, lines: lineCount(bytes, newlines, last) };
    } finally {
      fs.closeSync(output);
    }
  } finally {
    fs.closeSync(input);
  }
}

function countNewlines(view: Buffer): number {
  let newlines = 0;
  for (let at = view.indexOf(10); at !== -1; at = view.indexOf(10, at + 1)) newlines++;
  return newlines;
}

/** Lines of a text of `bytes` bytes with `newlines` newlines ending with byte `last`: a last line without a newline counts. */
function lineCount(bytes: number, newlines: number, last: number): number {
  return bytes === 0 ? 0 : last === 10 ? newlines : newlines + 1;
}
