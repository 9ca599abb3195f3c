import { SessionStorageError } from "../session-storage-error";
import type { RecordTable } from "./record-table";
import type { SerializedLine, SerializedText } from "./serialize-entries";
import type { StorageFs } from "./storage-fs";
import type { SyncPolicy } from "./sync-policy";
import { writeJsonLine } from "./write-json-line";

/** Input of {@link writeLines}. */
export interface WriteLinesInput {
  fs: StorageFs;
  path: string;
  fd: number;
  /** File size before the call: where the first line lands, and where a failure cuts back to. */
  size: number;
  /** Line number of the first line written. */
  firstLine: number;
  header: SerializedText | undefined;
  lines: SerializedLine[];
  table: RecordTable;
  sync: SyncPolicy;
}

/** Outcome of {@link writeLines}: the new size, or an error after the file was cut back. */
export interface WriteLinesResult {
  size: number;
  linesWritten: number;
  error?: SessionStorageError;
  /** Set when the file could not be cut back: it may end with a torn line until reopened. */
  brokenReason?: string;
}

/**
 * Writes the header (if any) and each entry line with one `write` each (all bytes of a line in one
 * call, repeated only if the OS accepts a partial write), records them in `table`, then applies the
 * durability policy. All or nothing: on any failure the records are dropped again and the file is
 * truncated back to `size`. Never throws.
 */
export function writeLines(input: WriteLinesInput): WriteLinesResult {
  const { fs, path, fd, size, table, lines } = input;
  const recordsBefore = table.size;
  let pos = size;
  let lineNo = input.firstLine;
  /** What was being written: the header (-1), an entry line (its position in `lines`), the fsync. */
  let current = -1;
  try {
    if (input.header) {
      pos += writeJsonLine(fs, fd, input.header.json);
      lineNo++;
    }
    for (current = 0; current < lines.length; current++) {
      const { json, record } = lines[current] as SerializedLine;
      const bytes = writeJsonLine(fs, fd, json);
      table.push(record, pos, bytes - 1, lineNo);
      pos += bytes;
      lineNo++;
    }
    input.sync.afterWrite(fd);
    return { size: pos, linesWritten: lineNo - input.firstLine };
  } catch (cause) {
    const record = lines[current]?.record;
    const what =
      current < 0
        ? "the header"
        : record === undefined
          ? "the fsync"
          : `entry ${record.id ?? `of type ${record.type}`}`;
    return cutBack(fs, path, fd, size, table, recordsBefore, lineNo, what, cause);
  }
}

/**
 * {@link writeLines} for one entry line and no header, the append of a live session: the same write,
 * record, durability policy and all-or-nothing failure, without the batch's bookkeeping. Returns the
 * new file size, or the failure as `writeLines` reports it (the file cut back). Never throws.
 */
export function writeLine(
  fs: StorageFs,
  path: string,
  fd: number,
  size: number,
  lineNo: number,
  line: SerializedLine,
  table: RecordTable,
  sync: SyncPolicy,
): number | WriteLinesResult {
  const recordsBefore = table.size;
  let written = false;
  try {
    const bytes = writeJsonLine(fs, fd, line.json);
    table.push(line.record, size, bytes - 1, lineNo);
    written = true;
    sync.afterWrite(fd);
    return size + bytes;
  } catch (cause) {
    const { record } = line;
    const what = written ? "the fsync" : `entry ${record.id ?? `of type ${record.type}`}`;
    return cutBack(fs, path, fd, size, table, recordsBefore, written ? lineNo + 1 : lineNo, what, cause);
  }
}

/** After a failed write: drops the new records and truncates the file back to `size`. */
function cutBack(
  fs: StorageFs,
  path: string,
  fd: number,
  size: number,
  table: RecordTable,
  recordsBefore: number,
  lineNo: number,
  what: string,
  cause: unknown,
): WriteLinesResult {
  table.truncate(recordsBefore);
  try {
    fs.ftruncateSync(fd, size);
  } catch (truncateError) {
    const reason = `cutting ${path} back to ${size} bytes failed: ${String(truncateError)}`;
    return {
      size,
      linesWritten: 0,
      brokenReason: reason,
      error: new SessionStorageError(
        "SESSION_WRITE_FAILED",
        `${path}: writing ${what} failed (${String(cause)}) and ${reason}. Earlier entries are intact; reopen the session to quarantine the torn last line.`,
        { path, line: lineNo, cause },
      ),
    };
  }
  return {
    size,
    linesWritten: 0,
    error: new SessionStorageError(
      "SESSION_WRITE_FAILED",
      `${path}:${lineNo}: writing ${what} failed (${String(cause)}). The file was cut back to its previous ${size} bytes: nothing of this append was kept.`,
      { path, line: lineNo, cause },
    ),
  };
}
