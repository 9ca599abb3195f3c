import type { StorageLoadIssue } from "../session-storage";
import { SessionStorageError } from "../session-storage-error";
import { LineScanner } from "./line-scanner";
import type { RecordTable } from "./record-table";
import { CHUNK_BYTES, SAMPLE_BYTES, scanSessionFile } from "./scan-session-file";
import { settleTornTail } from "./settle-torn-tail";
import { readSidecarIndex } from "./sidecar-index";
import { errnoCode, type StorageFs } from "./storage-fs";

/** What {@link openSessionFile} found. */
export interface OpenedSessionFile {
  /** Open descriptor (`r+` when writable), `undefined` when the file does not exist yet. */
  fd: number | undefined;
  scanner: LineScanner;
  /** File size after any tail repair or quarantine. */
  size: number;
  /** End of the prefix made of complete lines (what a sidecar index may cover). */
  complete: { bytes: number; lines: number };
  /** Corrupt lines and the torn tail, in file order. */
  issues: StorageLoadIssue[];
  /** Bytes covered by the sidecar index that was used (-1: none). */
  indexedEnd: number;
  indexRejectedReason: string | undefined;
  tailRepaired: boolean;
  /** A small file's bytes as the scan read them (see {@link SMALL_FILE_BYTES}); `undefined` otherwise. */
  bytes?: { buf: Buffer; from: number; length: number };
}

/**
 * A file up to this size, ending with a newline, keeps the last chunk its scan read for entry reads
 * (the leaf's entries are there; a file of one chunk is read once per open) and reads the rest in
 * windows of that chunk's buffer; its lines are scanned with `matchEntryRecord`, which needs no
 * warm-up (see `LineScanner`).
 */
export const SMALL_FILE_BYTES = 4 * 1024 * 1024;

/**
 * Opens and scans a session file into `table`: reuses a valid sidecar index, scans the rest, then
 * settles an unterminated last line (repaired, or quarantined when writable). Throws
 * `SESSION_NOT_FOUND` (read-only, missing file), `SESSION_HEADER_INVALID`, or an I/O error, after
 * closing the descriptor it opened; on success the caller owns `fd`.
 */
export function openSessionFile(
  fs: StorageFs,
  path: string,
  table: RecordTable,
  options: { readOnly: boolean; indexPath: string | undefined; columnsMinBytes: number },
): OpenedSessionFile {
  let fd: number;
  try {
    fd = fs.openSync(path, options.readOnly ? "r" : "r+");
  } catch (error) {
    if (errnoCode(error) !== "ENOENT") throw error;
    if (options.readOnly) {
      throw new SessionStorageError("SESSION_NOT_FOUND", `Session file not found: ${path}`, { path });
    }
    const scanner = new LineScanner(path, table);
    return {
      fd: undefined,
      scanner,
      size: 0,
      complete: { bytes: 0, lines: 0 },
      issues: [],
      indexedEnd: -1,
      indexRejectedReason: undefined,
      tailRepaired: false,
    };
  }
  try {
    return scanOpenFile(fs, fd, path, table, options);
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

function scanOpenFile(
  fs: StorageFs,
  fd: number,
  path: string,
  table: RecordTable,
  options: { readOnly: boolean; indexPath: string | undefined; columnsMinBytes: number },
): OpenedSessionFile {
  const file = fs.fstatSync(fd);
  // A large file's records are kept as columns (see `RecordTable.useColumns`), a small one's as objects.
  table.useColumns(file.size >= options.columnsMinBytes);
  let scanner = new LineScanner(path, table, { small: file.size <= SMALL_FILE_BYTES });
  let from = 0;
  let indexedEnd = -1;
  let indexRejectedReason: string | undefined;
  if (options.indexPath !== undefined) {
    const index = readSidecarIndex(
      fs,
      options.indexPath,
      fd,
      { size: file.size, ino: file.ino },
      table.isColumnar,
    );
    if (index.ok) {
      const d = index.data;
      table.adopt(d.records, d.columns);
      scanner = new LineScanner(path, table, {
        header: d.header,
        lineNo: d.coveredLines,
        small: file.size - d.coveredBytes <= SMALL_FILE_BYTES,
      });
      // One at a time: a damaged file may list more issues than a call takes arguments.
      for (const issue of d.issues) scanner.issues.push(issue);
      from = d.coveredBytes;
      indexedEnd = d.coveredBytes;
    } else {
      indexRejectedReason = index.reason;
    }
  }
  // A small file scanned from its start keeps its ids in a Map (see `RecordTable.useMapIndex`).
  if (indexedEnd < 0 && file.size <= SMALL_FILE_BYTES) table.useMapIndex();
  // Entries take 0.5-3 KB. The table is reserved for the first 8 MB at the dense end; a larger file
  // is then sized from the lines found in them (with a margin; tables grow if short), so that it
  // neither regrows while scanning nor holds (and scatters its id lookups over) tables several times
  // too large.
  const remaining = file.size - from;
  table.reserve(table.size + Math.ceil(Math.min(remaining, SAMPLE_BYTES) / 768));
  const scan = scanSessionFile(
    fs,
    fd,
    scanner,
    from,
    file.size,
    CHUNK_BYTES,
    () => {
      const { bytesScanned, linesScanned } = scanner.counters;
      if (bytesScanned <= 0 || bytesScanned >= remaining) return;
      const expected = ((remaining - bytesScanned) / bytesScanned) * linesScanned * 1.25;
      table.reserve(table.size + Math.ceil(expected));
    },
    SAMPLE_BYTES,
    SMALL_FILE_BYTES,
  );
  scanner.requireHeader(scan.end > 0);
  const opened: OpenedSessionFile = {
    fd,
    scanner,
    size: file.size,
    complete: { bytes: scan.end, lines: scanner.lineNo },
    issues: [...scanner.issues],
    indexedEnd,
    indexRejectedReason,
    tailRepaired: false,
    ...(scan.bytes === undefined ? {} : { bytes: scan.bytes }),
  };
  if (scan.tail) {
    const outcome = settleTornTail(fs, fd, path, scanner, scan.tail, !options.readOnly);
    opened.size = outcome.size;
    opened.tailRepaired = outcome.repaired;
    if (!options.readOnly) opened.complete = { bytes: outcome.size, lines: scanner.lineNo };
    if (outcome.issue) opened.issues.push(outcome.issue);
  }
  return opened;
}
