import { dirname } from "node:path";
import type { StorageLoadIssue } from "../session-storage";
import { SessionStorageError } from "../session-storage-error";
import { recordFromEntry } from "./extract-entry-record";
import { hasByteOrderMark, type LineScanner, parseLine } from "./line-scanner";
import { readFully, type StorageFs, syncDirectory } from "./storage-fs";

/** What was done with the bytes after the last newline. */
export interface TailOutcome {
  /** File size afterwards. */
  size: number;
  /** True when the tail was a complete line missing only its newline (kept; newline added if writable). */
  repaired: boolean;
  /** The report, when the tail was torn. */
  issue?: StorageLoadIssue;
}

/**
 * Settles the unterminated last line of a session. A complete line (it parses as an entry, or as the
 * header when there is none yet) only lacks its newline: it is kept and, when writable, the newline is
 * added. Anything else is a torn write: when writable, its bytes are copied to a quarantine file
 * `<session>.torn-<time>` (synced) and the session is cut back to its last complete line, so appending
 * continues on a clean line; read-only, it is only reported. Throws on I/O errors (the file is then
 * unchanged or still has its tail).
 */
export function settleTornTail(
  fs: StorageFs,
  fd: number,
  path: string,
  scanner: LineScanner,
  tail: { offset: number; length: number },
  writable: boolean,
): TailOutcome {
  const bytes = Buffer.allocUnsafe(tail.length);
  const n = readFully(fs, fd, bytes, 0, tail.length, tail.offset);
  const text = bytes.subarray(0, n);
  const bom = tail.offset === 0 && hasByteOrderMark(text, 0, n) ? 3 : 0;
  const trimmed = text.toString("utf8", bom).trim();
  const parsed = trimmed === "" ? { ok: true as const, value: undefined } : parseLine(text, bom, n);
  // Torn writes start with "{" and stop early, so they never parse as an object with a `type`.
  const complete = parsed.ok && (trimmed === "" || recordFromEntry(parsed.value) !== undefined);
  if (!complete && scanner.header === undefined && !/^\s*\{\s*"type"\s*:\s*"session"/.test(trimmed)) {
    // No header anywhere, and the tail is not a header cut off while a new session was being
    // created: this is some other file (a note, a log). Refuse it and leave every byte in place.
    throw new SessionStorageError(
      "SESSION_HEADER_INVALID",
      `${path}:${scanner.lineNo + 1}: not a session file: the first line is not a session header {"type":"session","id":...}. The file was not modified.`,
      { path, line: scanner.lineNo + 1 },
    );
  }
  if (complete) {
    scanner.classify(text, 0, n, tail.offset); // throws first if it is a bad header: file untouched
    if (writable) fs.writeSync(fd, "\n", tail.offset + n);
    return { size: tail.offset + n + (writable ? 1 : 0), repaired: true };
  }
  const line = scanner.lineNo + 1;
  if (!writable) {
    return {
      size: tail.offset + n,
      repaired: false,
      issue: {
        code: "SESSION_TAIL_TORN",
        line,
        message: `${path}:${line}: the last line is incomplete (${n} bytes, a write was cut off). It was left in place because the storage is read-only.`,
        byteOffset: tail.offset,
        byteLength: n,
      },
    };
  }
  const quarantinePath = writeQuarantine(fs, path, text);
  fs.ftruncateSync(fd, tail.offset);
  fs.fsyncSync(fd);
  return {
    size: tail.offset,
    repaired: false,
    issue: {
      code: "SESSION_TAIL_TORN",
      line,
      message: `${path}:${line}: the last line is incomplete (${n} bytes, a write was cut off). Its bytes were moved to ${quarantinePath} and the file was cut back to its last complete line; appending continues on a clean line.`,
      quarantinePath,
      byteOffset: tail.offset,
      byteLength: n,
    },
  };
}

function writeQuarantine(fs: StorageFs, path: string, bytes: Buffer): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  for (let k = 0; ; k++) {
    const candidate = `${path}.torn-${stamp}${k === 0 ? "" : `-${k}`}`;
    let fd: number;
    try {
      fd = fs.openSync(candidate, "wx");
    } catch (error) {
      if ((error as { code?: string }).code === "EEXIST" && k < 100) continue;
      throw error;
    }
    try {
      let written = 0;
      while (written < bytes.length) written += fs.writeSync(fd, bytes, written, bytes.length - written);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    syncDirectory(fs, dirname(path));
    return candidate;
  }
}
