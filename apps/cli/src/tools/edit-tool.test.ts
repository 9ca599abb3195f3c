import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEditTool } from "./edit-tool";
import { PathGuard } from "./path-guard";
import { toolContext } from "./tool-test-context";

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-edit-"));
  file = path.join(dir, "a.ts");
  fs.writeFileSync(file, "const a = 1;\nconst b = 2;\nconst c = 2;\n");
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("edit tool", () => {
  it("replaces exactly one occurrence and reports the lines", async () => {
    const output = await createEditTool(new PathGuard({ cwd: dir })).execute(
      {
        path: "a.ts",
        oldText: "const b = 2;",
        newText: "const b = 3;\nconst d = 4;",
      },
      toolContext(),
    );
    expect(fs.readFileSync(file, "utf8")).toBe("const a = 1;\nconst b = 3;\nconst d = 4;\nconst c = 2;\n");
    expect(output.content).toEqual([{ type: "text", text: "Edited a.ts (lines 2-3)" }]);
  });

  it("rejects ambiguous, missing and no-op replacements without touching the file", async () => {
    const tool = createEditTool(new PathGuard({ cwd: dir }));
    await expect(
      tool.execute({ path: "a.ts", oldText: "= 2;", newText: "= 5;" }, toolContext()),
    ).rejects.toThrow("occurs 2 times");
    await expect(
      tool.execute({ path: "a.ts", oldText: "nope", newText: "x" }, toolContext()),
    ).rejects.toThrow("not found");
    await expect(tool.execute({ path: "a.ts", oldText: "a", newText: "a" }, toolContext())).rejects.toThrow(
      "identical",
    );
    await expect(tool.execute({ path: "a.ts", oldText: "", newText: "x" }, toolContext())).rejects.toThrow(
      "empty",
    );
    await expect(tool.execute({ path: "b.ts", oldText: "a", newText: "b" }, toolContext())).rejects.toThrow(
      "File not found: b.ts",
    );
    expect(fs.readFileSync(file, "utf8")).toBe("const a = 1;\nconst b = 2;\nconst c = 2;\n");
  });

  it("refuses a file that is not valid UTF-8 and leaves it untouched", async () => {
    const latin1 = Buffer.from("caf\xe9 = 1;\n", "latin1");
    fs.writeFileSync(path.join(dir, "legacy.txt"), latin1);
    await expect(
      createEditTool(new PathGuard({ cwd: dir })).execute(
        { path: "legacy.txt", oldText: "= 1", newText: "= 2" },
        toolContext(),
      ),
    ).rejects.toMatchObject({
      code: "TOOL_NOT_UTF8",
      message:
        "edit: legacy.txt is not valid UTF-8 (invalid byte 0xe9 at byte offset 3); edit only changes UTF-8 text files, so nothing was changed",
    });
    expect(fs.readFileSync(path.join(dir, "legacy.txt"))).toEqual(latin1);
  });

  it("keeps a byte order mark", async () => {
    fs.writeFileSync(path.join(dir, "bom.txt"), "\uFEFFhello\n");
    await createEditTool(new PathGuard({ cwd: dir })).execute(
      { path: "bom.txt", oldText: "hello", newText: "bye" },
      toolContext(),
    );
    expect(fs.readFileSync(path.join(dir, "bom.txt"), "utf8")).toBe("\uFEFFbye\n");
  });

  it("refuses a FIFO and paths outside the working folder", async () => {
    execFileSync("mkfifo", [path.join(dir, "pipe")]);
    const tool = createEditTool(new PathGuard({ cwd: dir }));
    await expect(
      tool.execute({ path: "pipe", oldText: "a", newText: "b" }, toolContext()),
    ).rejects.toMatchObject({ code: "TOOL_NOT_REGULAR_FILE" });
    await expect(
      tool.execute({ path: "../elsewhere.txt", oldText: "a", newText: "b" }, toolContext()),
    ).rejects.toMatchObject({ code: "TOOL_PATH_OUTSIDE_FOLDER" });
  });
});
