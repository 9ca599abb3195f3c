import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEditTool } from "./edit-tool";
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
    const output = await createEditTool(dir).execute(
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
    const tool = createEditTool(dir);
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
});
