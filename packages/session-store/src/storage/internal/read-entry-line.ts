import type { StoredEntryRecord } from "../session-storage";
import { SessionStorageError } from "../session-storage-error";
import { scanEntryRecord } from "./extract-entry-record";
import { parseLine } from "./line-scanner";
import type { RecordTable } from "./record-table";
import { readFully, type StorageFs } from "./storage-fs";

/** Bytes read at once when an entry is not in the window: enough for hundreds of typical entries. */
const WINDOW_BYTES = 1024 * 1024;

/**
 * A window of file bytes kept between entry reads, so a projection reading many neighbouring
 * entries costs one read call per window instead of one per entry. The window is filled from the
 * requested line forwards, or backwards (ending at the line) for the first read and when reads go
 * down the file, as a walk from the leaf does.
 * Only bytes that existed when the window was read are held; call {@link EntryReadWindow.clear} when
 * the file may change under it (after an append or a rewrite).
 */
export class EntryReadWindow {
  private buf: Buffer = Buffer.alloc(0);
  /** File offset of `buf[0]`. */
  private start = 0;
  /** Valid bytes in `buf`. */
  private length = 0;
  private lastIndex = -1;

  /** Holds `buf[0, length)`, the file's bytes from offset `start` as read just now (at load). */
  adopt(buf: Buffer, start: number, length: number): void {
    this.buf = buf;
    this.start = start;
    this.length = length;
    this.lastIndex = -1;
  }

  /** Forgets the held bytes; with `release`, also lets go of the buffer (on close). */
  clear(release = false): void {
    this.length = 0;
    this.lastIndex = -1;
    if (release) this.buf = Buffer.alloc(0);
  }
  /**
   * Where line `[offset, offset + size)` starts in the returned buffer, reading a new window when
   * needed. Returns -1 when the file ends before the line does. Throws what `readSync` throws.
   */
  locate(
    fs: StorageFs,
    fd: number,
    index: number,
    offset: number,
    size: number,
  ): { buf: Buffer; at: number } {
    // The first read after a clear is usually the leaf, near the end: read the lines before it too.
    const goingDown = this.lastIndex < 0 || index < this.lastIndex;
    this.lastIndex = index;
    if (offset >= this.start && offset + size <= this.start + this.length) {
      return { buf: this.buf, at: offset - this.start };
    }
    const want = Math.max(WINDOW_BYTES, size);
    if (this.buf.length < want) this.buf = Buffer.allocUnsafe(want);
    // Reading down the file: end the window at this line so the lines before it come along.
    const from = goingDown ? Math.max(0, offset + size - want) : offset;
    this.length = 0;
    const n = readFully(fs, fd, this.buf, 0, want, from);
    this.start = from;
    this.length = n;
    return { buf: this.buf, at: offset + size <= from + n ? offset - from : -1 };
  }
}

/**
 * Reads and parses the line of record `index` (through `window`), checking it still holds that entry
 * (same `type` and `id`). Throws `SESSION_READ_FAILED`, `SESSION_LINE_CORRUPT` or
 * `SESSION_FILE_CHANGED`, naming the file and line.
 */
export function readEntryLine(
  fs: StorageFs,
  fd: number,
  path: string,
  table: RecordTable,
  index: number,
  window: EntryReadWindow,
): Record<string, unknown> {
  const record = table.records[index];
  if (record === undefined) throw new Error(`no record ${index}`);
  const start = table.startOf(index);
  const length = table.lengthOf(index);
  const line = table.lineOf(index);
  // Built only for an error: the happy path runs once per projected entry.
  const where = () => ({ path, line, ...(record.id === undefined ? {} : { entryId: record.id }) });
  const name = record.id ?? `#${index}`;
  let located: { buf: Buffer; at: number };
  try {
    located = window.locate(fs, fd, index, start, length);
  } catch (error) {
    window.clear();
    throw new SessionStorageError(
      "SESSION_READ_FAILED",
      `${path}:${line}: cannot read entry ${name} (${String(error)}).`,
      {
        ...where(),
        cause: error,
      },
    );
  }
  if (located.at < 0) {
    throw new SessionStorageError(
      "SESSION_FILE_CHANGED",
      `${path}:${line}: the file is shorter than when it was loaded (entry ${name} is gone): it was changed by another program. Reopen the session.`,
      where(),
    );
  }
  const parsed = parseLine(located.buf, located.at, located.at + length);
  if (!parsed.ok) {
    throw new SessionStorageError(
      "SESSION_LINE_CORRUPT",
      `${path}:${line}: the line of entry ${name} does not parse (${parsed.error}). It stays in the file unchanged.`,
      where(),
    );
  }
  const entry = parsed.value as Record<string, unknown> | null;
  if (
    typeof entry !== "object" ||
    entry === null ||
    entry.type !== record.type ||
    (entry.id ?? undefined) !== record.id
  ) {
    const duplicated = describeDuplicatedKey(located.buf, located.at, length, record, entry);
    if (duplicated !== undefined) {
      throw new SessionStorageError(
        "SESSION_LINE_CORRUPT",
        `${path}:${line}: the line of entry ${name} ${duplicated}. It stays in the file unchanged.`,
        where(),
      );
    }
    throw new SessionStorageError(
      "SESSION_FILE_CHANGED",
      `${path}:${line}: expected entry ${name} (${record.type}) but the line holds something else: the file was changed by another program. Reopen the session.`,
      where(),
    );
  }
  return entry;
}

/**
 * The bytes of record `index`'s line (newline excluded) as a view of `window`'s buffer, valid until the
 * next read through `window`; `undefined` when the file ends before the line does. Nothing is parsed
 * or checked. Throws `SESSION_READ_FAILED` naming the file and line.
 */
export function readLineBytes(
  fs: StorageFs,
  fd: number,
  path: string,
  table: RecordTable,
  index: number,
  window: EntryReadWindow,
): Uint8Array | undefined {
  const start = table.startOf(index);
  const length = table.lengthOf(index);
  let located: { buf: Buffer; at: number };
  try {
    located = window.locate(fs, fd, index, start, length);
  } catch (error) {
    window.clear();
    const line = table.lineOf(index);
    throw new SessionStorageError(
      "SESSION_READ_FAILED",
      `${path}:${line}: cannot read the line (${String(error)}).`,
      {
        path,
        line,
        cause: error,
      },
    );
  }
  return located.at < 0 ? undefined : located.buf.subarray(located.at, located.at + length);
}

/**
 * When the line still starts exactly as it did at load time (same `type` and `id` from the fast
 * scan) but its parsed value disagrees, the file did not change: a key is repeated further on the
 * line and `JSON.parse` kept the later value. Returns what disagrees, or `undefined` when the line's
 * start changed too (the file was changed by another program).
 */
function describeDuplicatedKey(
  buf: Buffer,
  at: number,
  length: number,
  record: StoredEntryRecord,
  entry: unknown,
): string | undefined {
  let end = at + length;
  while (end > at && (buf[end - 1] === 0x20 || buf[end - 1] === 0x09 || buf[end - 1] === 0x0d)) end--;
  const start = scanEntryRecord(buf, at, end);
  if (start === undefined || start.type !== record.type || start.id !== record.id) return undefined;
  const parsed = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>;
  const key = parsed.type !== record.type ? "type" : "id";
  const first = key === "type" ? record.type : record.id;
  return `repeats the key "${key}": it starts with ${JSON.stringify(first)} but a later "${key}" gives ${String(JSON.stringify(parsed[key])).slice(0, 80)}, and a JSON reader keeps the later one, so the entry is ambiguous (the file was not changed since it was loaded)`;
}
