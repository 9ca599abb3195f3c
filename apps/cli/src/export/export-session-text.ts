import fs from "node:fs";
import path from "node:path";
import { SessionStorageError } from "@arbor/session-store";
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
 * A database session is read in chunks from one snapshot (`streamPostgresSession`), never whole.
 *
 * @throws CliError `CLI_USAGE` (output is the session file itself, or `-`), `CLI_FILE_NOT_FOUND`,
 *   `CLI_EXPORT_FAILED`; session-store errors for a database location (`SESSION_NOT_FOUND`,
 *   `SESSION_READ_FAILED`), with nothing left at the output.
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
    return writeAtomically(file, async (temporary) => copyCountingLines(location, temporary));
  }
  const { parsePostgresLocation, streamPostgresSession } = await import("@arbor/session-store/postgres");
  const parsed = parsePostgresLocation(location);
  const sessionId = parsed.sessionId;
  if (sessionId === undefined) {
    throw new CliError("CLI_USAGE", `${location}: no session id (postgresql://host/database#<session-id>)`);
  }
  const file = path.resolve(options.cwd, options.output ?? `${sessionId}.jsonl`);
  // Chunk by chunk from one snapshot: a session of any size, never held whole.
  return writeAtomically(file, (temporary) =>
    writeCountingLines(streamPostgresSession(parsed.target, sessionId), temporary),
  );
}

/** Writes the chunks of `text` to `to`, counting bytes and lines. */
async function writeCountingLines(
  text: AsyncIterable<string>,
  to: string,
): Promise<{ bytes: number; lines: number }> {
  const output = fs.openSync(to, "w", 0o644);
  try {
    let bytes = 0;
    let newlines = 0;
    let last = -1;
    for await (const chunk of text) {
      const view = Buffer.from(chunk, "utf8");
      if (view.length === 0) continue;
      newlines += countNewlines(view);
      for (let written = 0; written < view.length; ) written += fs.writeSync(output, view, written);
      bytes += view.length;
      last = view[view.length - 1] as number;
    }
    return { bytes, lines: lineCount(bytes, newlines, last) };
  } finally {
    fs.closeSync(output);
  }
}

/** Bytes copied at a time from a session file. */
const COPY_BYTES = 1 << 20;

/**
 * Writes `file` through a temporary file beside it and a rename (a failed export leaves nothing);
 * `write` fills the temporary file and says what it wrote.
 */
async function writeAtomically(
  file: string,
  write: (temporary: string) => Promise<{ bytes: number; lines: number }>,
): Promise<ExportSessionTextResult> {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const written = await write(temporary);
    fs.renameSync(temporary, file);
    return { file, ...written };
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    // A database session's own errors (no such session, the server gone mid-way) stay as they are.
    if (CliError.isInstance(error) || SessionStorageError.isInstance(error)) throw error;
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
