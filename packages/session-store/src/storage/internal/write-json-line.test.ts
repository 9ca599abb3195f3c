import { closeSync, openSync, readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../__fixtures__/storage-fixtures";
import { nodeStorageFs, type StorageFs } from "./storage-fs";
import { writeJsonLine } from "./write-json-line";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

/** Writes `jsons` to a fresh file through `fs`; returns the bytes each call reported and the file. */
function writeAll(jsons: string[], fs: StorageFs = nodeStorageFs): { reported: number[]; file: Buffer } {
  const path = tmp.file("lines.jsonl");
  const fd = openSync(path, "a");
  const reported = jsons.map((json) => writeJsonLine(fs, fd, json));
  closeSync(fd);
  return { reported, file: readFileSync(path) };
}

describe("writeJsonLine", () => {
  it("writes the UTF-8 of each line plus a newline and reports its length, like Buffer.from of the line", () => {
    const jsons = [
      JSON.stringify({ a: "ascii" }),
      JSON.stringify({ text: "é — 漢字 🌳" }),
      // A lone surrogate: written as U+FFFD, as Buffer.from and a string write do.
      `{"broken":"${"\uD800"}"}`,
      "",
    ];
    const { reported, file } = writeAll(jsons);
    const expected = jsons.map((json) => Buffer.from(`${json}\n`, "utf8"));
    expect(reported).toEqual(expected.map((b) => b.length));
    expect(file.equals(Buffer.concat(expected))).toBe(true);
  });

  it("writes lines longer than the reused buffer, before and after its growth, and one beyond its cap", () => {
    const sizes = [10, 30_000, 100, 200_000, 5, 600_000, 20];
    const jsons = sizes.map((n, i) => JSON.stringify({ i, text: (i % 2 ? "ü" : "x").repeat(n) }));
    const { reported, file } = writeAll(jsons);
    const expected = jsons.map((json) => Buffer.from(`${json}\n`, "utf8"));
    expect(reported).toEqual(expected.map((b) => b.length));
    expect(file.equals(Buffer.concat(expected))).toBe(true);
  });

  it("finishes a line the OS accepted only part of, with further writes", () => {
    let calls = 0;
    const stingy: StorageFs = {
      ...nodeStorageFs,
      writeSync: ((fd: number, buffer: Buffer, offset: number, length: number) => {
        calls++;
        return nodeStorageFs.writeSync(fd, buffer, offset, Math.min(length, 7));
      }) as StorageFs["writeSync"],
    };
    const json = JSON.stringify({ type: "message", text: "partial writes — ünïcode" });
    const { reported, file } = writeAll([json], stingy);
    const expected = Buffer.from(`${json}\n`, "utf8");
    expect(reported).toEqual([expected.length]);
    expect(file.equals(expected)).toBe(true);
    expect(calls).toBe(Math.ceil(expected.length / 7));
  });

  it("throws what the write throws", () => {
    const failing: StorageFs = {
      ...nodeStorageFs,
      writeSync: (() => {
        throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
      }) as StorageFs["writeSync"],
    };
    expect(() => writeAll(["{}"], failing)).toThrow(/ENOSPC/);
  });
});
