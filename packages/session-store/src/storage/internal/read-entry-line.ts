import type { StoredEntryRecord } from "../session-storage";
import { SessionStorageError } from "../session-storage-error";
import { scanEntryRecord } from "./extract-entry-record";
import type { RecordTable } from "./record-table";
import { readFully, type StorageFs } from "./storage-fs";

/** Bytes read at once when an entry is not in the window: enough for hundreds of typical entries. */
const WINDOW_BYTES = 1024 * 1024;

/** The smallest window an adopted buffer sets (see {@link EntryReadWindow.adopt}). */
const MIN_WINDOW_BYTES = 256 * 1024;

/**
 * Bytes read at once when the window before served fewer than {@link JUMP_HITS} reads: reads that
 * jump around the file (the children of the forks, ordered by their timestamps) would each read a
 * whole window and use a line or two of it.
 */
const JUMP_BYTES = 64 * 1024;
const JUMP_HITS = 16;

/**
 * A window of file bytes kept between entry reads, so a projection reading many neighbouring
 * entries costs one read call per window instead of one per entry. The window is filled from the
 * requested line forwards, or backwards (ending at the line) for the first read and when reads go
 * down the file, as a walk from the leaf does. When the window before served only a few reads, the
 * next is small: reads that jump around use little of each window.
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
  /** Reads the current window served besides the one it was read for; -1: none read since a clear. */
  private hits = -1;
  /** Bytes read at once (a line longer than that is read whole). */
  private windowBytes = WINDOW_BYTES;

  /**
   * Holds `buf[0, length)`, the file's bytes from offset `start` as read just now (at load), and
   * reads later windows into `buf`: windows of `buf.length` bytes (256 KB at least, 1 MB at most),
   * so that the reads of a small session touch no fresh memory.
   */
  adopt(buf: Buffer, start: number, length: number): void {
    this.buf = buf;
    this.start = start;
    this.length = length;
    this.lastIndex = -1;
    this.hits = -1;
    this.windowBytes = Math.min(WINDOW_BYTES, Math.max(MIN_WINDOW_BYTES, buf.length));
  }

  /** Forgets the held bytes; with `release`, also lets go of the buffer (on close). */
  clear(release = false): void {
    this.length = 0;
    this.lastIndex = -1;
    this.hits = -1;
    if (release) this.buf = Buffer.alloc(0);
  }

  /** The buffer {@link EntryReadWindow.locate} found the last line in (valid until the next call). */
  get bytes(): Buffer {
    return this.buf;
  }

  /**
   * Where line `[offset, offset + size)` starts in {@link EntryReadWindow.bytes}, reading a new window
   * when needed. Returns -1 when the file ends before the line does. Throws what `readSync` throws.
   */
  locate(fs: StorageFs, fd: number, index: number, offset: number, size: number): number {
    // The first read after a clear is usually the leaf, near the end: read the lines before it too.
    const goingDown = this.lastIndex < 0 || index < this.lastIndex;
    this.lastIndex = index;
    if (offset >= this.start && offset + size <= this.start + this.length) {
      if (this.hits >= 0) this.hits++;
      return offset - this.start;
    }
    const jumping = this.hits >= 0 && this.hits < JUMP_HITS;
    const want = Math.max(Math.min(jumping ? JUMP_BYTES : WINDOW_BYTES, this.windowBytes), size);
    this.hits = 0;
    if (this.buf.length < want) this.buf = Buffer.allocUnsafe(want);
    // Reading down the file: end the window at this line so the lines before it come along.
    const from = goingDown ? Math.max(0, offset + size - want) : offset;
    this.length = 0;
    const n = readFully(fs, fd, this.buf, 0, want, from);
    this.start = from;
    this.length = n;
    return offset + size <= from + n ? offset - from : -1;
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
  const type = table.typeOf(index);
  if (type === undefined) throw new Error(`no record ${index}`);
  const id = table.idOf(index);
  const length = table.lengthOf(index);
  // The happy path runs once per projected entry: it allocates nothing but the decoded line.
  const at = locateEntryLine(fs, fd, path, table, index, window);
  if (at < 0) {
    throw lineError(
      "SESSION_FILE_CHANGED",
      path,
      table,
      index,
      id,
      (line, name) =>
        `${path}:${line}: the file is shorter than when it was loaded (entry ${name} is gone): it was changed by another program. Reopen the session.`,
    );
  }
  const buf = window.bytes;
  let entry: Record<string, unknown> | null;
  try {
    // No encoding argument: UTF-8, the default, without the encoding lookup a named one costs on
    // every call (a measurable share of reading a context of thousands of entries).
    entry = JSON.parse(buf.toString(undefined, at, at + length)) as Record<string, unknown> | null;
  } catch (error) {
    const problem = error instanceof Error ? error.message.slice(0, 120) : String(error);
    throw lineError(
      "SESSION_LINE_CORRUPT",
      path,
      table,
      index,
      id,
      (line, name) =>
        `${path}:${line}: the line of entry ${name} does not parse (${problem}). It stays in the file unchanged.`,
    );
  }
  if (typeof entry !== "object" || entry === null || entry.type !== type || (entry.id ?? undefined) !== id) {
    const duplicated = describeDuplicatedKey(buf, at, length, { id, type }, entry);
    if (duplicated !== undefined) {
      throw lineError(
        "SESSION_LINE_CORRUPT",
        path,
        table,
        index,
        id,
        (line, name) =>
          `${path}:${line}: the line of entry ${name} ${duplicated}. It stays in the file unchanged.`,
      );
    }
    throw lineError(
      "SESSION_FILE_CHANGED",
      path,
      table,
      index,
      id,
      (line, name) =>
        `${path}:${line}: expected entry ${name} (${type}) but the line holds something else: the file was changed by another program. Reopen the session.`,
    );
  }
  return entry;
}

/** The error of {@link readEntryLine} for record `index`, naming the file, line and entry. */
function lineError(
  code: "SESSION_READ_FAILED" | "SESSION_FILE_CHANGED" | "SESSION_LINE_CORRUPT",
  path: string,
  table: RecordTable,
  index: number,
  id: string | undefined,
  message: (line: number, name: string) => string,
  cause?: unknown,
): SessionStorageError {
  const line = table.lineOf(index);
  const name = id ?? `#${index}`;
  return new SessionStorageError(code, message(line, name), {
    path,
    line,
    ...(id === undefined ? {} : { entryId: id }),
    ...(cause === undefined ? {} : { cause }),
  });
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
  const length = table.lengthOf(index);
  const at = locateEntryLine(fs, fd, path, table, index, window);
  return at < 0 ? undefined : window.bytes.subarray(at, at + length);
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
  record: Pick<StoredEntryRecord, "id" | "type">,
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

/**
 * Where record `index`'s line starts in `window.bytes` (reading a window when needed); -1 when the
 * file ends before the line does. Throws `SESSION_READ_FAILED` naming the file, line and entry.
 */
function locateEntryLine(
  fs: StorageFs,
  fd: number,
  path: string,
  table: RecordTable,
  index: number,
  window: EntryReadWindow,
): number {
  try {
    return window.locate(fs, fd, index, table.startOf(index), table.lengthOf(index));
  } catch (error) {
    window.clear();

    throw lineError(
      "SESSION_READ_FAILED",
      path,
      table,
      index,
      table.idOf(index),
      (line, name) => `${path}:${line}: cannot read entry ${name} (${String(error)}).`,
      error,
    );
  }
}
