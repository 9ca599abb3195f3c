import { describe, expect, it } from "vitest";
import { isInertUtf8 } from "./is-inert-utf8";
import { sanitizeTerminalText } from "./sanitize-terminal-text";

/** The UTF-8 bytes of `text` at `offset` bytes into a larger buffer (to vary the alignment). */
function bytesAt(text: string, offset: number): Uint8Array {
  const buf = Buffer.alloc(Buffer.byteLength(text) + offset + 8, 0x1b);
  const used = buf.write(text, offset);
  return buf.subarray(offset, offset + used);
}

describe("isInertUtf8", () => {
  it("accepts plain text, tabs, newlines and non-ASCII text at any alignment", () => {
    const text = `${"plain words ├─ │  … café 日本語 😀 ✓ \u00a0\u202f\u2029\t\n".repeat(8)}~`;
    for (let offset = 0; offset < 4; offset++) expect(isInertUtf8(bytesAt(text, offset))).toBe(true);
  });

  it.each([
    ["ESC", "\u001b"],
    ["CSI", "\u001b[2J"],
    ["8-bit CSI", "\u009b"],
    ["C1 control", "\u0085"],
    ["DEL", "\u007f"],
    ["carriage return", "\r"],
    ["NUL", "\u0000"],
    ["bidi override", "\u202e"],
    ["bidi isolate", "\u2066"],
  ])("rejects %s wherever it stands", (_name, sequence) => {
    const plain = "x".repeat(100);
    for (let at = 0; at <= 100; at += 7) {
      for (let offset = 0; offset < 4; offset++) {
        expect(isInertUtf8(bytesAt(plain.slice(0, at) + sequence + plain.slice(at), offset))).toBe(false);
      }
    }
  });

  it("rejects bytes that are not valid UTF-8 (a lone 0x9b is 8-bit CSI to some terminals)", () => {
    expect(isInertUtf8(Buffer.from([0x61, 0x9b, 0x32, 0x4a]))).toBe(false);
    expect(isInertUtf8(Buffer.concat([Buffer.from("a".repeat(200)), Buffer.from([0xc2])]))).toBe(false);
  });

  it("agrees with sanitizeTerminalText on random text", () => {
    const alphabet = ["\u001b", "\u007f", "\u0080", "\u009f", "\u00a0", "é", "\u202a", "\u202e", "\u202f"];
    alphabet.push(
      "\u2065",
      "\u2066",
      "\u2069",
      "\u206a",
      "├",
      "😀",
      "\r",
      "\u0000",
      "\u001f",
      " ",
      "\t",
      "\n",
    );
    let seed = 7;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    for (let round = 0; round < 3000; round++) {
      let text = "";
      const length = Math.floor(random() * 150);
      for (let at = 0; at < length; at++) {
        text += random() < 0.9 ? "x" : (alphabet[Math.floor(random() * alphabet.length)] as string);
      }
      expect(isInertUtf8(bytesAt(text, round & 3))).toBe(sanitizeTerminalText(text) === text);
    }
  });
});
