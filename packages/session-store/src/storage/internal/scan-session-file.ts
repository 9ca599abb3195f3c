import type { LineScanner } from "./line-scanner";
import { readFully, type StorageFs } from "./storage-fs";

/**
 * Default read size: large enough to amortize syscalls, small enough that the bytes just read are
 * still in the CPU cache when the scan goes over them (at 256 KB the scan of a 1M-entry file took
 * 11-18% less CPU than at 8 MB, in-process, minimum of repeated runs).
 */
export const CHUNK_BYTES = 256 * 1024;

/** Bytes fed before `scanSessionFile` calls its `afterSample` (what tables are sized from). */
export const SAMPLE_BYTES = 8 * 1024 * 1024;

/** Where a scan stopped. */
export interface FileScanResult {
  /** File offset just after the last complete line (a newline), i.e. the start of the tail. */
  end: number;
  /** The bytes after the last newline, when the file does not end with one: a torn or unterminated line. */
  tail?: { offset: number; length: number };
  /**
   * The last bytes read, when the range held no more than `keepBytes` and ended with a newline:
   * `buf[0, length)` are the file's bytes from offset `from` to the range's end (the whole range when
   * it fitted in one chunk). The leaf's entries are usually there: a reader serves them without reading.
   */
  bytes?: { buf: Buffer; from: number; length: number };
}

/**
 * Feeds the complete lines of `fd` between `from` and `size` to `scanner`, reading in chunks and
 * never keeping more than one chunk (or one line, if a line is longer) in memory. `afterSample` is
 * called once, as soon as at least `sampleBytes` of lines were fed (to size tables from what they
 * held); never for a file shorter than that. For a range of at most `keepBytes`, the last chunk read
 * is handed back (`bytes`: its buffer is the caller's then), so that the entries at the end of a
 * small session (the leaf's) can be read from memory afterwards. Only one chunk of fresh memory is
 * touched: a session of a few megabytes is not held whole (where a page fault costs 10 µs, reading a
 * 2 MB file into a buffer of its size cost as much as scanning it).
 */
export function scanSessionFile(
  fs: StorageFs,
  fd: number,
  scanner: LineScanner,
  from: number,
  size: number,
  chunkBytes = CHUNK_BYTES,
  afterSample?: () => void,
  sampleBytes = SAMPLE_BYTES,
  keepBytes = 0,
): FileScanResult {
  try {
    return scanRange(fs, fd, scanner, from, size, chunkBytes, afterSample, sampleBytes, keepBytes);
  } finally {
    scanner.releaseChunkBuffer();
  }
}

function scanRange(
  fs: StorageFs,
  fd: number,
  scanner: LineScanner,
  from: number,
  size: number,
  chunkBytes: number,
  afterSample: (() => void) | undefined,
  sampleBytes: number,
  keepBytes: number,
): FileScanResult {
  const range = Math.max(size - from, 1);
  const keep = range <= keepBytes;
  let buf = scanner.chunkBuffer(Math.min(chunkBytes, range), keep);
  let pos = from;
  /** Where the last read started. */
  let read = from;
  while (pos < size) {
    read = pos;
    const want = Math.min(buf.length, size - pos);
    const n = readFully(fs, fd, buf, 0, want, pos);
    if (n === 0) break; // the file shrank under us: stop at what we have
    const consumed = scanner.scanChunk(buf, n, pos);
    const atEnd = pos + n >= size;
    if (consumed === 0) {
      if (atEnd) break;
      // One line longer than the buffer: grow it and read the line again from its start.
      buf = Buffer.allocUnsafe(buf.length * 2);
      continue;
    }
    pos += consumed;
    if (afterSample !== undefined && pos - from >= sampleBytes) {
      afterSample();
      afterSample = undefined;
    }
    if (atEnd) break; // what is left has no newline: the tail
  }
  if (pos < size) return { end: pos, tail: { offset: pos, length: size - pos } };
  return keep && size > from ? { end: pos, bytes: { buf, from: read, length: size - read } } : { end: pos };
}
