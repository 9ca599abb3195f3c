import { isUtf8 } from "node:buffer";

/**
 * Whether `bytes` are valid UTF-8 text that `sanitizeTerminalText` would leave exactly as it is: no
 * character it looks for (the C0 controls but tab and newline, DEL, the C1 controls U+0080–U+009F,
 * the bidirectional overrides and isolates U+202A–U+202E and U+2066–U+2069). Such bytes may be
 * written to a terminal as they are; anything else must be decoded and sanitized. One pass over the
 * bytes, four at a time while they are printable ASCII (plus Node's UTF-8 check): much cheaper than
 * the sanitizer's pattern over the decoded text. Pure.
 */
export function isInertUtf8(bytes: Uint8Array): boolean {
  if (!isUtf8(bytes)) return false;
  const length = bytes.length;
  let at = 0;
  // Four bytes at a time from an aligned offset: a word whose bytes are all 0x20–0x7e (printable
  // ASCII) has no high bit in the word, in the word minus 0x20 in each byte (a byte below 0x20
  // borrows), nor in the word plus 0x01 in each byte (0x7f carries). A borrow or carry between bytes
  // can only flag a word that is fine, which is then checked byte by byte.
  const aligned = (4 - ((bytes.byteOffset + at) & 3)) & 3;
  let words: Uint32Array | undefined;
  if (length - aligned >= 64) {
    words = new Uint32Array(bytes.buffer, bytes.byteOffset + aligned, (length - aligned) >>> 2);
  }
  for (; at < length; at++) {
    if (words !== undefined && at >= aligned) {
      // Skip the printable words: `word` is the one holding byte `at` (at is word-aligned here or
      // the loop below has just stepped past a byte that was checked alone).
      if (((at - aligned) & 3) === 0) {
        let word = (at - aligned) >>> 2;
        const count = words.length;
        while (word < count) {
          const w = words[word] as number;
          if (((w | (w - 0x20202020) | (w + 0x01010101)) & 0x80808080) !== 0) break;
          word++;
        }
        at = aligned + 4 * word;
        if (at >= length) break;
      }
    }
    const c = bytes[at] as number;
    if (c >= 0x20 && c < 0x7f) continue;
    if (c < 0x80) {
      if (c === 0x0a || c === 0x09) continue;
      return false; // another C0 control, or DEL
    }
    // Valid UTF-8 (checked above): a lead byte is always followed by its continuation bytes.
    if (c === 0xc2) {
      // U+0080–U+009F: C2 80 to C2 9F.
      if ((bytes[at + 1] as number) < 0xa0) return false;
    } else if (c === 0xe2) {
      // U+202A–U+202E: E2 80 AA to AE; U+2066–U+2069: E2 81 A6 to A9.
      const c1 = bytes[at + 1] as number;
      const c2 = bytes[at + 2] as number;
      if (c1 === 0x80 && c2 >= 0xaa && c2 <= 0xae) return false;
      if (c1 === 0x81 && c2 >= 0xa6 && c2 <= 0xa9) return false;
    }
  }
  return true;
}
