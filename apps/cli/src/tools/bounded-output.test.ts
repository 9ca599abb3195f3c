import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { BoundedOutput } from "./bounded-output";

function collect(
  chunks: Array<string | Buffer>,
  options: ConstructorParameters<typeof BoundedOutput>[0] = {},
) {
  const output = new BoundedOutput(options);
  for (const chunk of chunks) output.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return output.finish();
}

describe("BoundedOutput", () => {
  it("returns a short output whole, without its final newline and without a file", () => {
    expect(collect(["one\n", "two\n"])).toEqual({
      text: "one\ntwo",
      truncated: false,
      totalBytes: 7,
      totalLines: 2,
      shownLines: 2,
      partialLine: false,
      spillLimited: false,
    });
    expect(collect([])).toMatchObject({ text: "", truncated: false, totalLines: 0, shownLines: 0 });
  });

  it("keeps the last whole lines that fit the byte limit and spills everything", () => {
    const lines = Array.from({ length: 100 }, (_, index) => `line ${index}`);
    const result = collect(
      lines.map((line) => `${line}\n`),
      { maxBytes: 40 },
    );
    expect(result.text).toBe("line 95\nline 96\nline 97\nline 98\nline 99");
    expect(result).toMatchObject({ truncated: true, totalLines: 100, shownLines: 5, partialLine: false });
    expect(fs.readFileSync(result.fullOutputPath as string, "utf8")).toBe(`${lines.join("\n")}\n`);
  });

  it("keeps the last lines that fit the line limit", () => {
    const result = collect(["a\nb\nc\nd\ne\n"], { maxLines: 2 });
    expect(result).toMatchObject({ text: "d\ne", truncated: true, totalLines: 5, shownLines: 2 });
    expect(fs.readFileSync(result.fullOutputPath as string, "utf8")).toBe("a\nb\nc\nd\ne\n");
  });

  it("shows the end of one line longer than the limit, never starting inside a character", () => {
    const result = collect(["x".repeat(50), "é".repeat(30)], { maxBytes: 25 });
    expect(result.partialLine).toBe(true);
    expect(result.text).toBe("é".repeat(12));
    expect(result.totalLines).toBe(1);
  });

  it("treats the line cut at the start of the window as partial even when chunks were dropped", () => {
    const chunks = Array.from({ length: 50 }, () => "0123456789");
    const result = collect([...chunks, "\nlast line\n"], { maxBytes: 15 });
    expect(result.text).toBe("last line");
    expect(result.partialLine).toBe(false);
  });

  it("stops the spill file at its limit and says so", () => {
    const result = collect(["a".repeat(100), "b".repeat(100), "c".repeat(100)], {
      maxBytes: 10,
      maxSpillBytes: 150,
    });
    expect(result.spillLimited).toBe(true);
    expect(result.text).toBe("c".repeat(10));
    expect(fs.readFileSync(result.fullOutputPath as string, "utf8")).toBe(
      `${"a".repeat(100)}${"b".repeat(50)}`,
    );
  });

  it("removes a spill file that turned out unneeded", () => {
    const output = new BoundedOutput({ maxLines: 2 });
    output.push(Buffer.from("a\nb\n"));
    const result = output.finish();
    expect(result).toMatchObject({ text: "a\nb", truncated: false });
    expect(result.fullOutputPath).toBeUndefined();
  });
});
