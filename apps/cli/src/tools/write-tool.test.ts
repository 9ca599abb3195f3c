import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PathGuard } from "./path-guard";
import { toolContext } from "./tool-test-context";
import { createWriteTool } from "./write-tool";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-write-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("write tool", () => {
  it("creates parent folders and the file", async () => {
    const output = await createWriteTool(new PathGuard({ cwd: dir })).execute(
      { path: "src/deep/x.ts", content: "export {};\n" },
      toolContext(),
    );
    expect(fs.readFileSync(path.join(dir, "src/deep/x.ts"), "utf8")).toBe("export {};\n");
    expect(output.content).toEqual([{ type: "text", text: "Created src/deep/x.ts (11 bytes)" }]);
  });

  it("overwrites an existing file", async () => {
    fs.writeFileSync(path.join(dir, "x.txt"), "old");
    const output = await createWriteTool(new PathGuard({ cwd: dir })).execute(
      { path: "x.txt", content: "new" },
      toolContext(),
    );
    expect(fs.readFileSync(path.join(dir, "x.txt"), "utf8")).toBe("new");
    expect(output.details).toMatchObject({ created: false, bytes: 3 });
  });

  it("refuses to overwrite a folder", async () => {
    fs.mkdirSync(path.join(dir, "sub"));
    await expect(
      createWriteTool(new PathGuard({ cwd: dir })).execute({ path: "sub", content: "x" }, toolContext()),
    ).rejects.toThrow("is a folder");
  });

  it("refuses FIFOs and devices without blocking or writing to them", async () => {
    execFileSync("mkfifo", [path.join(dir, "pipe")]);
    const tool = createWriteTool(new PathGuard({ cwd: dir, allowedFolders: ["/dev"] }));
    await expect(tool.execute({ path: "pipe", content: "x" }, toolContext())).rejects.toMatchObject({
      code: "TOOL_NOT_REGULAR_FILE",
      message: "write: pipe is a FIFO (named pipe), not a regular file; write only works on regular files",
    });
    await expect(tool.execute({ path: "/dev/null", content: "x" }, toolContext())).rejects.toThrow(
      "write: /dev/null is a character device",
    );
  });

  it("refuses to write through a symlink that points out of the working folder", async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-outside-"));
    try {
      fs.symlinkSync(path.join(outside, "planted.txt"), path.join(dir, "innocent.txt"));
      await expect(
        createWriteTool(new PathGuard({ cwd: dir })).execute(
          { path: "innocent.txt", content: "x" },
          toolContext(),
        ),
      ).rejects.toMatchObject({ code: "TOOL_PATH_OUTSIDE_FOLDER" });
      expect(fs.existsSync(path.join(outside, "planted.txt"))).toBe(false);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
