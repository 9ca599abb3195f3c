import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "./sha256-hex";

const reference = (text: string) => createHash("sha256").update(text).digest("hex");

describe("sha256Hex", () => {
  it("matches node:crypto on the standard vectors", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("matches node:crypto at every length around the block boundaries, and on UTF-8 text", () => {
    for (let length = 0; length <= 200; length++) {
      const text = Array.from({ length }, (_, i) => String.fromCharCode(32 + ((i * 7 + length) % 95))).join(
        "",
      );
      expect(sha256Hex(text)).toBe(reference(text));
    }
    for (const text of ["/home/é/ß/日本語/session.jsonl", "😀".repeat(40), "C:\\Users\\x\\s.jsonl"]) {
      expect(sha256Hex(text)).toBe(reference(text));
    }
  });
});
