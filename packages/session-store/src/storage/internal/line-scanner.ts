import type { StorageLoadIssue, StoredEntryRecord } from "../session-storage";
import { SessionStorageError } from "../session-storage-error";
import { type PreviousId, recordFromEntry, scanEntryRecord } from "./extract-entry-record";
import { matchEntryRecord } from "./match-entry-record";
import type { RecordTable } from "./record-table";
import { scanWasmChunk } from "./scan-wasm-chunk";
import { WasmEntryScanner } from "./wasm-entry-scanner";

/** Largest chunk read into the WebAssembly scanner's memory (longer lines use a plain buffer). */
const WASM_CHUNK_LIMIT = 1024 * 1024;

const NEWLINE = 0x0a;

/**
 * Line bytes whose parsed entries a scan keeps for the migration's reads (see `LineScanner.takeParsed`):
 * enough for any real session of pi's first format (they run to a few MB), and a bound on what a
 * caller that loads such a file without reading its entries holds until it closes the storage.
 */
export const KEEP_PARSED_MAX_BYTES = 8 * 1024 * 1024;

/** Counters of one scan, exposed through the JSONL backend's `stats()`. */
export interface ScanCounters {
  /** Bytes looked at by the line scanner. */
  bytesScanned: number;
  /** Lines looked at (entries, header, blank and corrupt lines). */
  linesScanned: number;
  /** Entry lines whose record came from the fast byte scan. */
  fastPathLines: number;
  /** Entry lines that needed a full `JSON.parse`. */
  parsedLines: number;
}

/**
 * Splits session bytes into lines and classifies each: header, entry (record + location), blank, or
 * corrupt (reported as an issue, never dropped from the file). Feed it complete lines in file order.
 */
export class LineScanner {
  header: Record<string, unknown> | undefined;
  /** 1-based number of the last line seen. */
  lineNo: number;
  readonly issues: StorageLoadIssue[] = [];
  readonly counters: ScanCounters = { bytesScanned: 0, linesScanned: 0, fastPathLines: 0, parsedLines: 0 };
  /** Last fast-scanned id (valid within the current chunk only). */
  readonly previous: PreviousId = { buf: undefined, start: 0, end: 0, id: undefined, hash: 0 };
  /** Records are found with `matchEntryRecord` (a small file, scanned once by code still cold). */
  private readonly small: boolean;
  /** Extracts the records of a large scan's chunks (see {@link LineScanner.chunkBuffer}). */
  private wasm: WasmEntryScanner | undefined;
  /**
   * The entries this scan had to parse (by table index), kept when the header found is older than
   * version 3: opening such a file reads every entry once to migrate it, and would parse each line a
   * second time. Handed over once by {@link LineScanner.takeParsed}; `undefined` for other files.
   * Only the first `KEEP_PARSED_MAX_BYTES` of lines are kept (the rest is read again when asked).
   */
  private parsed: Map<number, Record<string, unknown>> | undefined;
  /** Line bytes of the entries put in {@link LineScanner.parsed} (at most `KEEP_PARSED_MAX_BYTES`). */
  private parsedBytes = 0;

  /**
   * `start`: where the scan resumes (after a sidecar index); `small`: the bytes to scan are few
   * (see `SMALL_FILE_BYTES`), so each line's record is found with one regular expression
   * (`matchEntryRecord`) rather than the byte loop that pays off once optimized (`scanEntryRecord`).
   * Both give the same records.
   */
  constructor(
    private readonly path: string,
    private readonly table: RecordTable,
    start: { header?: Record<string, unknown>; lineNo?: number; small?: boolean } = {},
  ) {
    this.header = start.header;
    this.lineNo = start.lineNo ?? 0;
    this.small = start.small ?? false;
  }

  /**
   * A buffer of `size` bytes to read the next chunk into. For a large scan, the first one (and any
   * later one that fits in it) lives in the memory of a {@link WasmEntryScanner}, whose compiled
   * code then splits each chunk into lines and extracts their records: the same records as
   * `scanEntryRecord`, without the JavaScript loop's warm-up (where WebAssembly is missing, a plain
   * buffer). A small scan (see the constructor) uses a plain buffer: at 1,000 entries compiling and
   * running the module cold cost more than the regular expression. With `keep` (bytes the caller
   * holds on to after the scan), always a buffer of its own. Call
   * {@link LineScanner.releaseChunkBuffer} when the scan is over.
   */
  chunkBuffer(size: number, keep = false): Buffer {
    if (keep || this.small || size > WASM_CHUNK_LIMIT) return Buffer.allocUnsafe(size);
    this.wasm ??= WasmEntryScanner.create(size);
    const wasm = this.wasm;
    return wasm !== undefined && size <= wasm.capacity
      ? wasm.chunk().subarray(0, size)
      : Buffer.allocUnsafe(size);
  }

  /** Lets go of the memory behind {@link LineScanner.chunkBuffer} (the scanner lives on with the store). */
  releaseChunkBuffer(): void {
    this.wasm = undefined;
  }

  /**
   * Classifies every complete line in `buf[0, length)`, whose first byte is at file offset `fileOffset`.
   * Returns how many bytes were consumed: up to and including the last newline.
   */
  scanChunk(buf: Buffer, length: number, fileOffset: number): number {
    const view = length === buf.length ? buf : buf.subarray(0, length);
    this.previous.buf = undefined; // the bytes of the previous chunk are about to be overwritten
    if (this.wasm?.owns(view) === true) {
      const consumed = scanWasmChunk(this.wasm, this, this.table, view, fileOffset);
      this.previous.buf = undefined;
      this.counters.bytesScanned += consumed;
      return consumed;
    }
    let nul = view.indexOf(0);
    let lineStart = 0;
    for (;;) {
      const nl = view.indexOf(NEWLINE, lineStart);
      if (nl < 0) break;
      // A NUL byte can never be part of valid JSON text: such a line goes to the strict parser.
      while (nul >= 0 && nul < lineStart) nul = view.indexOf(0, nul + 1);
      this.classify(view, lineStart, nl, fileOffset + lineStart, nul >= 0 && nul < nl);
      lineStart = nl + 1;
    }
    this.counters.bytesScanned += lineStart;
    return lineStart;
  }

  /**
   * True when a line whose record the WebAssembly scan found can be pushed as it is: a header was
   * found, and the file needs no parsed entries kept (see {@link LineScanner.takeParsed}).
   */
  takesScannedRecords(): boolean {
    return this.header !== undefined && this.parsed === undefined;
  }

  /** Classifies one complete line `buf[start, end)` (newline excluded). */
  classify(buf: Buffer, start: number, end: number, offset: number, strict = false): void {
    this.lineNo++;
    this.counters.linesScanned++;
    let last = end;
    while (last > start && isSpace(buf[last - 1] as number)) last--;
    // A UTF-8 byte order mark at the very start of the file (some editors add one) is not data.
    const bom = offset === 0 && hasByteOrderMark(buf, start, last) ? 3 : 0;
    if (last === start + bom) return; // blank line: not data, kept in the file, nothing to report
    if (this.header === undefined) {
      this.classifyHeader(buf, start + bom, last, offset, end - start);
      return;
    }
    let record: StoredEntryRecord | undefined;
    // A file older than version 3 is migrated whole at open: parse each line now, and only once.
    const keep = this.parsed !== undefined && this.parsedBytes < KEEP_PARSED_MAX_BYTES;
    if (keep) strict = true;
    if (!strict && !this.small) {
      record = scanEntryRecord(buf, start, last, this.previous);
      if (record) {
        this.counters.fastPathLines++;
        this.table.push(record, offset, end - start, this.lineNo, this.previous.hash);
        return;
      }
    } else if (!strict) record = matchEntryRecord(buf, start, last, this.previous);
    if (record) {
      this.counters.fastPathLines++;
    } else {
      this.counters.parsedLines++;
      this.previous.buf = undefined;
      const parsed = parseLine(buf, start, last);
      if (!parsed.ok) {
        this.report(`is not valid JSON (${parsed.error})`, offset, end - start);
        return;
      }
      record = recordFromEntry(parsed.value);
      if (!record) {
        this.report("is not a session entry (no string `type` field)", offset, end - start);
        return;
      }
      if (keep) {
        this.parsed?.set(this.table.size, parsed.value as Record<string, unknown>);
        this.parsedBytes += last - start;
      }
    }
    this.table.push(record, offset, end - start, this.lineNo);
  }

  /**
   * The entry at table `index` as this scan parsed it, once: the object is the caller's from then on
   * and the next call for `index` returns `undefined` (the line must then be read again). Only entries
   * of a file whose header is older than version 3 are kept; `undefined` for any other.
   */
  takeParsed(index: number): Record<string, unknown> | undefined {
    const parsed = this.parsed;
    if (parsed === undefined) return undefined;
    const entry = parsed.get(index);
    if (entry !== undefined) parsed.delete(index);
    return entry;
  }

  /** Lets go of the parsed entries not taken yet (when the storage closes). */
  dropParsed(): void {
    this.parsed?.clear();
  }

  /** Throws when the scan ends and no header was ever found in a non-empty file. */
  requireHeader(fileHasContent: boolean): void {
    if (this.header === undefined && fileHasContent) {
      throw new SessionStorageError(
        "SESSION_HEADER_INVALID",
        `${this.path} has no session header: no line parses as {"type":"session","id":...}. The file was not modified.`,
        { path: this.path },
      );
    }
  }

  private classifyHeader(buf: Buffer, start: number, end: number, offset: number, length: number): void {
    const parsed = parseLine(buf, start, end);
    if (!parsed.ok) {
      this.report(`is not valid JSON (${parsed.error})`, offset, length);
      return;
    }
    const value = parsed.value as Record<string, unknown> | null;
    if (
      typeof value !== "object" ||
      value === null ||
      value.type !== "session" ||
      typeof value.id !== "string"
    ) {
      throw new SessionStorageError(
        "SESSION_HEADER_INVALID",
        `${this.path}:${this.lineNo}: the first line must be a session header {"type":"session","id":...}; found ${describe(value)}. The file was not modified.`,
        { path: this.path, line: this.lineNo },
      );
    }
    this.header = value;
    // Before version 3 (no `version`: version 1) the store migrates every entry at open.
    if (!(typeof value.version === "number" && value.version >= 3)) this.parsed = new Map();
  }

  private report(what: string, offset: number, length: number): void {
    this.issues.push({
      code: "SESSION_LINE_CORRUPT",
      line: this.lineNo,
      message: `${this.path}:${this.lineNo}: line ${what}. It stays in the file unchanged and is left out of the session.`,
      byteOffset: offset,
      byteLength: length,
    });
  }
}

/** True when `buf[start, end)` begins with the UTF-8 byte order mark EF BB BF. */
export function hasByteOrderMark(buf: Buffer, start: number, end: number): boolean {
  return end - start >= 3 && buf[start] === 0xef && buf[start + 1] === 0xbb && buf[start + 2] === 0xbf;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0d || c === 0x09;
}

function describe(value: unknown): string {
  if (typeof value !== "object" || value === null)
    return JSON.stringify(value)?.slice(0, 40) ?? String(value);
  const type = (value as Record<string, unknown>).type;
  return typeof type === "string"
    ? `an entry of type "${type.slice(0, 40)}"`
    : "an object without a session type";
}

/** `JSON.parse` of one line, never throwing. */
export function parseLine(
  buf: Buffer,
  start: number,
  end: number,
): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(buf.toString("utf8", start, end)) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message.slice(0, 120) : String(error) };
  }
}
