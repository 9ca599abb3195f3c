import type { FileHandle } from "node:fs/promises";

/** Bytes read per system call. */
const CHUNK_BYTES = 1024 * 1024;
/** After the wanted lines, the rest of the file is scanned for the line count only when it is this small. */
const COUNT_REST_LIMIT = 64 * 1024 * 1024;
const NEWLINE = 0x0a;

/** Which lines {@link readTextLines} returns. */
export interface ReadTextLinesOptions {
  /** First line, 1-based. */
  offset: number;
  /** Most lines returned. */
  maxLines: number;
  /** Most bytes returned (a first line longer than this is cut to it). */
  maxBytes: number;
}

/** The lines found and what is known about the rest of the file. */
export interface TextLines {
  /** The lines from `offset` on, decoded as UTF-8 (invalid bytes become U+FFFD). */
  lines: string[];
  /** True when the first returned line was cut at `maxBytes` (a line longer than the limit). */
  firstLineCut: boolean;
  /** True when lines after the returned ones exist (or may exist, when the count is unknown). */
  more: boolean;
  /** Lines in the file, when the scan reached the end; undefined for a large file read partly. */
  totalLines: number | undefined;
  /** Lines before the end of the file when `offset` was past it (else undefined). */
  pastEndLines: number | undefined;
}

/**
 * Reads lines `offset`… of an open file in fixed-size chunks, so memory stays bounded whatever the
 * file's size: lines before `offset` are only counted, the wanted lines are kept up to the limits,
 * and the rest is counted only when it is small (a 1.5 GB file costs a scan up to the wanted lines,
 * never a load). A first line longer than `maxBytes` is returned cut; a later line that does not fit
 * is left for the next page. Never reads past the point where the page is full.
 */
export async function readTextLines(handle: FileHandle, options: ReadTextLinesOptions): Promise<TextLines> {
  const { offset, maxLines, maxBytes } = options;
  const size = (await handle.stat()).size;
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const lines: string[] = [];
  let current: Buffer[] = [];
  let currentBytes = 0;
  let keptBytes = 0;
  let lineNumber = 1;
  let firstLineCut = false;
  let lastByte = -1;
  let position = 0;
  /** Where the scan stopped early (the page is full), and whether it stopped inside a line. */
  let stop: { position: number; midLine: boolean } | undefined;

  const take = (piece: Buffer) => {
    const room = maxBytes + 1 - currentBytes;
    if (room <= 0) return;
    const part = piece.length > room ? piece.subarray(0, room) : piece;
    current.push(Buffer.from(part));
    currentBytes += part.length;
  };
  const fits = () =>
    lines.length === 0 ? currentBytes <= maxBytes : keptBytes + 1 + currentBytes <= maxBytes;
  const keep = () => {
    keptBytes += currentBytes + (lines.length > 0 ? 1 : 0);
    lines.push(Buffer.concat(current).toString("utf8"));
    current = [];
    currentBytes = 0;
  };

  while (stop === undefined && position < size) {
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    const base = position;
    position += bytesRead;
    lastByte = chunk[bytesRead - 1] as number;
    for (let start = 0; start < chunk.length; ) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      const wanted = lineNumber >= offset;
      if (wanted) {
        take(chunk.subarray(start, end));
        if (!fits()) {
          if (lines.length === 0) {
            lines.push(cutToBytes(Buffer.concat(current), maxBytes));
            firstLineCut = true;
          }
          stop = { position: base + end, midLine: true };
          break;
        }
      }
      if (newline === -1) break;
      if (wanted) keep();
      lineNumber += 1;
      start = newline + 1;
      if (wanted && lines.length >= maxLines) {
        stop = { position: base + start, midLine: false };
        break;
      }
    }
  }
  if (stop === undefined) {
    const unterminated = size > 0 && lastByte !== NEWLINE;
    if (unterminated && lineNumber >= offset) keep();
    const totalLines = lineNumber - 1 + (unterminated ? 1 : 0);
    const pastEnd = lines.length === 0 && totalLines < offset && !(offset === 1 && totalLines === 0);
    return {
      lines,
      firstLineCut,
      more: false,
      totalLines,
      pastEndLines: pastEnd ? totalLines : undefined,
    };
  }
  const shownUpTo = offset - 1 + lines.length;
  const totalLines =
    size - stop.position <= COUNT_REST_LIMIT
      ? await countLines(handle, stop, size, lineNumber - 1, buffer)
      : undefined;
  return {
    lines,
    firstLineCut,
    more: totalLines === undefined || totalLines > shownUpTo,
    totalLines,
    pastEndLines: undefined,
  };
}

/**
 * The file's line count: `before` complete lines up to `stop.position`, plus the newlines after it,
 * plus a last line without a newline (or the unfinished line the scan stopped in, if nothing follows).
 */
async function countLines(
  handle: FileHandle,
  stop: { position: number; midLine: boolean },
  size: number,
  before: number,
  buffer: Buffer,
): Promise<number> {
  let count = before;
  let lastByte = -1;
  for (let position = stop.position; position < size; ) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    for (let index = chunk.indexOf(NEWLINE); index !== -1; index = chunk.indexOf(NEWLINE, index + 1)) count++;
    lastByte = chunk[bytesRead - 1] as number;
    position += bytesRead;
  }
  if (lastByte === -1) return stop.midLine ? count + 1 : count;
  return lastByte === NEWLINE ? count : count + 1;
}

/** The longest prefix of `bytes` that fits `maxBytes` without splitting a UTF-8 character. */
function cutToBytes(bytes: Buffer, maxBytes: number): string {
  let end = Math.min(bytes.length, maxBytes);
  while (end > 0 && end < bytes.length && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString("utf8");
}
