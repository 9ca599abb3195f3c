import { describe, expect, it } from "vitest";
import { LineBatch } from "./line-batch";

describe("LineBatch", () => {
  it("writes the lines added, each followed by a newline, as bytes of their own per flush", () => {
    const chunks: Uint8Array[] = [];
    const batch = new LineBatch({ write: () => true, writeBytes: (chunk) => chunks.push(chunk) });
    expect(batch.flush()).toBe(true); // nothing to write
    batch.add("header\n");
    batch.add("├─ café 😀");
    expect(batch.count).toBe(2);
    batch.flush();
    batch.add("second");
    batch.flush();
    expect(batch.count).toBe(0);
    expect(chunks.map((chunk) => Buffer.from(chunk).toString())).toEqual([
      "header\n\n├─ café 😀\n",
      "second\n",
    ]);
  });

  it("grows for long lines and writes text to a stream without writeBytes", () => {
    const texts: string[] = [];
    const batch = new LineBatch({ write: (text) => texts.push(text) });
    const long = "é".repeat(300_000);
    batch.add("a");
    batch.add(long);
    batch.flush();
    expect(texts).toEqual([`a\n${long}\n`]);
  });
});
