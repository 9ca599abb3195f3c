import fs from "node:fs";
import { createToolOutputFile } from "./tool-output-folder";
import { MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES } from "./truncate-output";

/** The largest full output kept on disk per command (1 GiB); the shown tail is unaffected. */
export const MAX_SPILL_BYTES = 1024 ** 3;

/** Limits of a {@link BoundedOutput}. */
export interface BoundedOutputOptions {
  /** Bytes of the tail shown. Default 50 KB. */
  maxBytes?: number;
  /** Lines of the tail shown. Default 2000. */
  maxLines?: number;
  /** Bytes of the full output written to the spill file. Default {@link MAX_SPILL_BYTES}. */
  maxSpillBytes?: number;
  /** File name prefix of the spill file. Default `output`. */
  spillPrefix?: string;
}

/** What a {@link BoundedOutput} kept. */
export interface BoundedOutputResult {
  /** The shown tail, decoded as UTF-8, without the output's final newline. */
  text: string;
  /** True when `text` is not the whole output. */
  truncated: boolean;
  /** Bytes of the whole output (its final newline excluded). */
  totalBytes: number;
  /** Lines of the whole output (0 for no output). */
  totalLines: number;
  /** Lines in `text`. */
  shownLines: number;
  /** True when `text` starts inside a line (the last line alone is longer than the byte limit). */
  partialLine: boolean;
  /** The file holding the whole output (only when truncated and the spill worked). */
  fullOutputPath?: string;
  /** True when the spill file stopped at its size limit. */
  spillLimited: boolean;
  /** Why the spill file could not be written, if it failed. */
  spillError?: string;
}

const NEWLINE = 0x0a;

function countNewlines(chunk: Buffer): number {
  let count = 0;
  for (let index = chunk.indexOf(NEWLINE); index !== -1; index = chunk.indexOf(NEWLINE, index + 1)) count++;
  return count;
}

/**
 * Collects a command's output in bounded memory: it keeps only a window of the last bytes (a little
 * more than `maxBytes`) and, once the output outgrows the limits, writes everything to a spill file
 * (mode 0600, in the private tool output folder) up to `maxSpillBytes`. Memory stays the same whatever
 * the output's size; a write failure of the spill file (disk full) is recorded, never thrown.
 */
export class BoundedOutput {
  private readonly maxBytes: number;
  private readonly maxLines: number;
  private readonly maxSpillBytes: number;
  private readonly spillPrefix: string;
  private readonly window: Buffer[] = [];
  private windowBytes = 0;
  private total = 0;
  private newlines = 0;
  private lastByte = -1;
  /** The last byte of the chunks dropped from the window (-1 when none was dropped). */
  private droppedLastByte = -1;
  private spill: { path: string; fd: number | undefined; written: number } | undefined;
  private spillLimited = false;
  private spillError: string | undefined;

  constructor(options: BoundedOutputOptions = {}) {
    this.maxBytes = options.maxBytes ?? MAX_OUTPUT_BYTES;
    this.maxLines = options.maxLines ?? MAX_OUTPUT_LINES;
    this.maxSpillBytes = options.maxSpillBytes ?? MAX_SPILL_BYTES;
    this.spillPrefix = options.spillPrefix ?? "output";
  }

  /** Adds a chunk of output. Never throws. */
  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.total += chunk.length;
    this.newlines += countNewlines(chunk);
    this.lastByte = chunk[chunk.length - 1] as number;
    this.window.push(chunk);
    this.windowBytes += chunk.length;
    if (this.spill === undefined && this.spillError === undefined && this.outgrowsLimits()) {
      this.openSpill();
    } else if (this.spill !== undefined) {
      this.writeSpill(chunk);
    }
    if (this.spill !== undefined || this.spillError !== undefined) this.trimWindow();
  }

  /** Closes the spill file and returns the shown tail; a spill file that turned out unneeded is removed. */
  finish(): BoundedOutputResult {
    const data = Buffer.concat(this.window);
    const endsWithNewline = this.lastByte === NEWLINE;
    const totalBytes = this.total - (endsWithNewline ? 1 : 0);
    const totalLines = totalBytes === 0 && !endsWithNewline ? 0 : this.newlines + (endsWithNewline ? 0 : 1);
    const body = endsWithNewline ? data.subarray(0, data.length - 1) : data;
    const windowStart = totalBytes - body.length;
    let start = Math.max(0, body.length - this.maxBytes);
    // Never start inside a UTF-8 sequence (continuation bytes are 10xxxxxx).
    while (start > 0 && start < body.length && ((body[start] as number) & 0xc0) === 0x80) start++;
    const before = start > 0 ? body[start - 1] : this.droppedLastByte;
    const cutInsideLine = windowStart + start > 0 && before !== NEWLINE;
    let lines = body.subarray(start).toString("utf8").split("\n");
    let partialLine = cutInsideLine;
    if (cutInsideLine && lines.length > 1) {
      lines = lines.slice(1);
      partialLine = false;
    }
    if (lines.length > this.maxLines) {
      lines = lines.slice(-this.maxLines);
      partialLine = false;
    }
    const text = totalBytes === 0 ? "" : lines.join("\n");
    const truncated = Buffer.byteLength(text, "utf8") < totalBytes;
    const shownLines = totalBytes === 0 ? 0 : lines.length;
    const fullOutputPath = this.closeSpill(truncated);
    return {
      text,
      truncated,
      totalBytes,
      totalLines,
      shownLines,
      partialLine,
      ...(fullOutputPath !== undefined ? { fullOutputPath } : {}),
      spillLimited: this.spillLimited,
      ...(this.spillError !== undefined ? { spillError: this.spillError } : {}),
    };
  }

  private outgrowsLimits(): boolean {
    return this.total > this.maxBytes || this.newlines >= this.maxLines;
  }

  /** Drops old chunks while the rest still covers the shown tail (plus room for a partial character). */
  private trimWindow(): void {
    const keep = this.maxBytes + 8;
    while (this.window.length > 1 && this.windowBytes - (this.window[0] as Buffer).length >= keep) {
      const dropped = this.window.shift() as Buffer;
      this.windowBytes -= dropped.length;
      this.droppedLastByte = dropped[dropped.length - 1] as number;
    }
  }

  private openSpill(): void {
    try {
      const { path, fd } = createToolOutputFile(this.spillPrefix);
      this.spill = { path, fd, written: 0 };
    } catch (error) {
      this.spillError = (error as Error).message;
      return;
    }
    for (const chunk of this.window) this.writeSpill(chunk);
  }

  private writeSpill(chunk: Buffer): void {
    const spill = this.spill;
    if (spill?.fd === undefined) return;
    const room = this.maxSpillBytes - spill.written;
    const part = room < chunk.length ? chunk.subarray(0, Math.max(0, room)) : chunk;
    try {
      let offset = 0;
      while (offset < part.length) offset += fs.writeSync(spill.fd, part, offset, part.length - offset);
      spill.written += part.length;
    } catch (error) {
      this.spillError = (error as Error).message;
      this.closeFd();
      return;
    }
    if (room < chunk.length) {
      this.spillLimited = true;
      this.closeFd();
    }
  }

  private closeFd(): void {
    const spill = this.spill;
    if (spill?.fd === undefined) return;
    try {
      fs.closeSync(spill.fd);
    } catch {
      // Nothing more to write to it.
    }
    spill.fd = undefined;
  }

  private closeSpill(needed: boolean): string | undefined {
    this.closeFd();
    const spill = this.spill;
    if (spill === undefined) return undefined;
    if (needed && this.spillError === undefined) return spill.path;
    fs.rmSync(spill.path, { force: true });
    return undefined;
  }
}
