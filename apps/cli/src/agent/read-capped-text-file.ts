import fs from "node:fs";
import { firstInvalidUtf8Byte } from "../tools/first-invalid-utf8-byte";

/** A text file read by {@link readCappedTextFile}. */
export interface CappedText {
  text: string;
  /** The file's size in bytes. */
  bytes: number;
  /** True when only the first `maxBytes` were read. */
  truncated: boolean;
  /** True when bytes that are not UTF-8 were replaced (U+FFFD). */
  replacedInvalidUtf8: boolean;
}

/**
 * Reads at most `maxBytes` of a regular file as UTF-8 text (a cut inside a character is dropped,
 * invalid bytes become U+FFFD, a byte order mark is dropped). Anything that is not a regular file
 * after following symlinks (a folder, FIFO, device, socket) gives undefined without being opened
 * for reading in a way that could block; so does a missing file. Never writes.
 * @throws the file system's error for a file that exists but cannot be read (EACCES).
 */
export function readCappedTextFile(file: string, maxBytes: number): CappedText | undefined {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile()) return undefined;
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY);
  try {
    const opened = fs.fstatSync(fd);
    if (!opened.isFile()) return undefined;
    const buffer = Buffer.alloc(Math.min(maxBytes, opened.size));
    let length = 0;
    while (length < buffer.length) {
      const read = fs.readSync(fd, buffer, length, buffer.length - length, length);
      if (read === 0) break;
      length += read;
    }
    let bytes = buffer.subarray(0, length);
    const truncated = opened.size > length;
    if (truncated && bytes.length > 0) {
      // Drop a character cut in half at the end.
      let lead = bytes.length - 1;
      while (lead > 0 && bytes.length - lead < 4 && ((bytes[lead] as number) & 0xc0) === 0x80) lead--;
      const first = bytes[lead] as number;
      const needed = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
      if (lead + needed > bytes.length) bytes = bytes.subarray(0, lead);
    }
    const replacedInvalidUtf8 = firstInvalidUtf8Byte(bytes) !== -1;
    const text = bytes.toString("utf8").replace(/^\uFEFF/, "");
    return { text, bytes: opened.size, truncated, replacedInvalidUtf8 };
  } finally {
    fs.closeSync(fd);
  }
}
