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

  it("never reuses a buffer the stream may still hold (writableLength above 0, or not told)", () => {
    for (const writableLength of [64, undefined]) {
      const held: { chunk: Uint8Array; text: string }[] = [];
      const stream = {
        write: () => true,
        writableLength,
        writeBytes: (chunk: Uint8Array) => held.push({ chunk, text: Buffer.from(chunk).toString() }),
      };
      const batch = new LineBatch(stream);
      for (const line of ["first", "second", "third", "fourth"]) {
        batch.add(line);
        batch.flush();
      }
      // Every chunk still reads what it was given: none was written over by a later batch.
      expect(held.map(({ chunk }) => Buffer.from(chunk).toString())).toEqual(held.map(({ text }) => text));
      expect(new Set(held.map(({ chunk }) => chunk.buffer)).size).toBe(4);
    }
  });

  it("takes the buffer of the flush before again once the stream has written it (writableLength 0)", () => {
    const chunks: Uint8Array[] = [];
    const texts: string[] = [];
    const stream = {
      write: () => true,
      writableLength: 0,
      writeBytes: (chunk: Uint8Array) => {
        chunks.push(chunk);
        texts.push(Buffer.from(chunk).toString());
      },
    };
    const batch = new LineBatch(stream);
    for (const line of ["one", "two", "three", "four", "five"]) {
      batch.add(line);
      batch.flush();
    }
    expect(texts).toEqual(["one\n", "two\n", "three\n", "four\n", "five\n"]);
    // Two buffers in turn: the first flush's memory is the third's and the fifth's.
    expect(new Set(chunks.map((chunk) => chunk.buffer)).size).toBe(2);
    expect(chunks[2]?.buffer).toBe(chunks[0]?.buffer);
    expect(chunks[4]?.buffer).toBe(chunks[0]?.buffer);
  });
});
