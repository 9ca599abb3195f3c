import type { StorageFs } from "./storage-fs";

/** The scratch buffer starts at this size and grows, on demand, up to {@link SCRATCH_MAX_BYTES}. */
const SCRATCH_MIN_BYTES = 64 * 1024;
/** Lines whose worst-case encoding exceeds this get a buffer of their own (nothing large is kept). */
const SCRATCH_MAX_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

/** Reused by every call: writes are synchronous, so no two calls ever share it at the same time. */
let scratch: Buffer | undefined;

/**
 * Writes `json` followed by a newline as UTF-8 to `fd`, all of it: one `write` call, repeated for
 * the rest only if the OS accepts part of it. Returns the bytes written (the line's UTF-8 length,
 * newline included). Throws on the first failing write (some bytes may have been written).
 *
 * The line is encoded into a reused buffer (every UTF-16 unit takes at most three UTF-8 bytes, so a
 * buffer of three bytes per unit always holds it), which spares the copy of the string that
 * appending the newline makes, the separate length pass and the temporary copy `write` of a string
 * makes. Lone surrogates become U+FFFD, as with `write` of a string and `Buffer.byteLength`.
 */
export function writeJsonLine(fs: StorageFs, fd: number, json: string): number {
  const bound = json.length * 3 + 1;
  let buf: Buffer;
  if (bound <= SCRATCH_MAX_BYTES) {
    if (scratch === undefined || scratch.length < bound) {
      scratch = Buffer.allocUnsafe(Math.max(SCRATCH_MIN_BYTES, Math.min(SCRATCH_MAX_BYTES, bound * 2)));
    }
    buf = scratch;
  } else {
    buf = Buffer.allocUnsafe(Buffer.byteLength(json, "utf8") + 1);
  }
  const length = buf.write(json, 0, "utf8") + 1;
  buf[length - 1] = NEWLINE;
  let written = 0;
  while (written < length) written += fs.writeSync(fd, buf, written, length - written);
  return length;
}
