import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportSessionText } from "./export-session-text";

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-export-text-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The line count as the export states it: the text split at newlines, a final newline ending the last line. */
const expectedLines = (text: string) => (text === "" ? 0 : text.replace(/\n$/, "").split("\n").length);

describe("exportSessionText from a session file", () => {
  const line = (i: number) => `{"type":"message","id":"${i}","text":"é→ ${"x".repeat(i % 700)}"}`;
  const big = Array.from({ length: 6000 }, (_, i) => line(i)).join("\n");
  it.each([
    ["ends with a newline", `${big}\n`],
    ["ends without one", big],
    ["is empty", ""],
    ["is one newline", "\n"],
    ["ends with blank lines", "a\n\n\n"],
  ])("copies the exact bytes and counts the lines of a file that %s", async (name, text) => {
    const source = path.join(dir, `${name.replace(/\W+/g, "-")}.jsonl`);
    fs.writeFileSync(source, text);
    const result = await exportSessionText(source, { output: "copy.jsonl", cwd: dir });
    expect(result.file).toBe(path.join(dir, "copy.jsonl"));
    expect(fs.readFileSync(result.file).equals(fs.readFileSync(source))).toBe(true);
    expect(result.bytes).toBe(Buffer.byteLength(text));
    expect(result.lines).toBe(expectedLines(text));
    expect(fs.readdirSync(dir).filter((file) => file.endsWith(".tmp"))).toEqual([]);
  });

  it("copies a file larger than its copy buffer (several megabytes, multi-byte characters across the cuts)", async () => {
    const text = `${big}\n${big}\n${big}`;
    expect(Buffer.byteLength(text)).toBeGreaterThan(3 << 20);
    const source = path.join(dir, "large.jsonl");
    fs.writeFileSync(source, text);
    const elsewhere = fs.mkdtempSync(path.join(dir, "out-"));
    const result = await exportSessionText(source, { output: undefined, cwd: elsewhere });
    expect(result.file).toBe(path.join(elsewhere, "large.jsonl"));
    expect(fs.readFileSync(result.file).equals(fs.readFileSync(source))).toBe(true);
    expect(result.lines).toBe(18_000);
  });

  it("says which file cannot be read, and leaves nothing behind", async () => {
    const missing = path.join(dir, "missing.jsonl");
    await expect(exportSessionText(missing, { output: "out.jsonl", cwd: dir })).rejects.toMatchObject({
      code: "CLI_FILE_NOT_FOUND",
      message: expect.stringContaining(missing),
    });
    await expect(exportSessionText(dir, { output: "out.jsonl", cwd: dir })).rejects.toMatchObject({
      code: "CLI_FILE_NOT_FOUND",
    });
    expect(fs.existsSync(path.join(dir, "out.jsonl"))).toBe(false);
    expect(fs.readdirSync(dir).filter((file) => file.endsWith(".tmp"))).toEqual([]);
  });
});
