import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { toolContext } from "./tool-test-context";
import { createWriteTool } from "./write-tool";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-write-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("write tool", () => {
  it("creates parent folders and the file", async () => {
    const output = await createWriteTool(dir).execute(
      { path: "src/deep/x.ts", content: "export {};\n" },
      toolContext(),
    );
    expect(fs.readFileSync(path.join(dir, "src/deep/x.ts"), "utf8")).toBe("export {};\n");
    expect(output.content).toEqual([{ type: "text", text: "Created src/deep/x.ts (11 bytes)" }]);
  });

  it("overwrites an existing file", async () => {
    fs.writeFileSync(path.join(dir, "x.txt"), "old");
    const output = await createWriteTool(dir).execute({ path: "x.txt", content: "new" }, toolContext());
    expect(fs.readFileSync(path.join(dir, "x.txt"), "utf8")).toBe("new");
    expect(output.details).toMatchObject({ created: false, bytes: 3 });
  });

  it("refuses to overwrite a folder", async () => {
    fs.mkdirSync(path.join(dir, "sub"));
    await expect(createWriteTool(dir).execute({ path: "sub", content: "x" }, toolContext())).rejects.toThrow(
      "is a folder",
    );
  });
});
