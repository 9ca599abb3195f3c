import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createReadTool } from "./read-tool";
import { toolContext } from "./tool-test-context";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-read-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function text(output: { content: Array<{ type: string; text?: string }> }): string {
  return output.content.map((block) => block.text ?? "").join("");
}

describe("read tool", () => {
  it("returns the whole file relative to the working folder", async () => {
    fs.writeFileSync(path.join(dir, "a.txt"), "one\ntwo\nthree\n");
    const output = await createReadTool(dir).execute({ path: "a.txt" }, toolContext());
    expect(text(output)).toBe("one\ntwo\nthree");
  });

  it("pages with offset and limit and says how to continue", async () => {
    fs.writeFileSync(path.join(dir, "a.txt"), "l1\nl2\nl3\nl4\nl5\n");
    const output = await createReadTool(dir).execute({ path: "a.txt", offset: 2, limit: 2 }, toolContext());
    expect(text(output)).toBe("l2\nl3\n\n[Showing lines 2-3 of 5. Use offset=4 to continue.]");
    expect(output.details).toMatchObject({ firstLine: 2, lastLine: 3, totalLines: 5 });
  });

  it("caps long files at 2000 lines", async () => {
    const lines = Array.from({ length: 2500 }, (_, index) => `line ${index + 1}`);
    fs.writeFileSync(path.join(dir, "big.txt"), lines.join("\n"));
    const output = text(await createReadTool(dir).execute({ path: "big.txt" }, toolContext()));
    expect(output).toContain("line 2000\n\n[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]");
    expect(output).not.toContain("line 2001");
  });

  it("returns images as image blocks", async () => {
    fs.writeFileSync(path.join(dir, "p.png"), Buffer.from([137, 80, 78, 71]));
    const output = await createReadTool(dir).execute({ path: "p.png" }, toolContext());
    expect(output.content[1]).toEqual({ type: "image", data: "iVBORw==", mimeType: "image/png" });
  });

  it("throws clear errors for bad calls", async () => {
    fs.writeFileSync(path.join(dir, "a.txt"), "x\n");
    const tool = createReadTool(dir);
    await expect(tool.execute({ path: "missing.txt" }, toolContext())).rejects.toThrow(
      "File not found: missing.txt",
    );
    await expect(tool.execute({ path: "." }, toolContext())).rejects.toThrow("is a folder");
    await expect(tool.execute({ path: "a.txt", offset: 5 }, toolContext())).rejects.toThrow("past the end");
    await expect(tool.execute({ path: "a.txt", limit: -1 }, toolContext())).rejects.toThrow(
      '"limit" must be a positive',
    );
    await expect(tool.execute({}, toolContext())).rejects.toThrow('"path" must be a string');
  });
});
