import { SessionStorageError } from "../session-storage-error";
import { parseLine } from "./line-scanner";
import type { RecordTable } from "./record-table";
import { readFully, type StorageFs } from "./storage-fs";

/**
 * Reads and parses the line of record `index`, checking it still holds that entry (same `type` and
 * `id`). `scratch.buf` is reused and grown as needed. Throws `SESSION_READ_FAILED`,
 * `SESSION_LINE_CORRUPT` or `SESSION_FILE_CHANGED`, naming the file and line.
 */
export function readEntryLine(
  fs: StorageFs,
  fd: number,
  path: string,
  table: RecordTable,
  index: number,
  scratch: { buf: Buffer },
): Record<string, unknown> {
  const record = table.records[index];
  if (record === undefined) throw new Error(`no record ${index}`);
  const start = table.startOf(index);
  const length = table.lengthOf(index);
  const line = table.lineOf(index);
  const where = { path, line, ...(record.id === undefined ? {} : { entryId: record.id }) };
  const name = record.id ?? `#${index}`;
  if (length > scratch.buf.length) scratch.buf = Buffer.allocUnsafe(Math.max(length, scratch.buf.length * 2));
  let n: number;
  try {
    n = readFully(fs, fd, scratch.buf, 0, length, start);
  } catch (error) {
    throw new SessionStorageError(
      "SESSION_READ_FAILED",
      `${path}:${line}: cannot read entry ${name} (${String(error)}).`,
      {
        ...where,
        cause: error,
      },
    );
  }
  if (n < length) {
    throw new SessionStorageError(
      "SESSION_FILE_CHANGED",
      `${path}:${line}: the file is shorter than when it was loaded (entry ${name} is gone): it was changed by another program. Reopen the session.`,
      where,
    );
  }
  const parsed = parseLine(scratch.buf, 0, n);
  if (!parsed.ok) {
    throw new SessionStorageError(
      "SESSION_LINE_CORRUPT",
      `${path}:${line}: the line of entry ${name} does not parse (${parsed.error}). It stays in the file unchanged.`,
      where,
    );
  }
  const entry = parsed.value as Record<string, unknown> | null;
  if (
    typeof entry !== "object" ||
    entry === null ||
    entry.type !== record.type ||
    (entry.id ?? undefined) !== record.id
  ) {
    throw new SessionStorageError(
      "SESSION_FILE_CHANGED",
      `${path}:${line}: expected entry ${name} (${record.type}) but the line holds something else: the file was changed by another program. Reopen the session.`,
      where,
    );
  }
  return entry;
}
