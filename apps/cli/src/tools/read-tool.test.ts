import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PathGuard } from "./path-guard";
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
    const output = await createReadTool(new PathGuard({ cwd: dir })).execute(
      { path: "a.txt" },
      toolContext(),
    );
    expect(text(output)).toBe("one\ntwo\nthree");
  });

  it("pages with offset and limit and says how to continue", async () => {
    fs.writeFileSync(path.join(dir, "a.txt"), "l1\nl2\nl3\nl4\nl5\n");
    const output = await createReadTool(new PathGuard({ cwd: dir })).execute(
      { path: "a.txt", offset: 2, limit: 2 },
      toolContext(),
    );
    expect(text(output)).toBe("l2\nl3\n\n[Showing lines 2-3 of 5. Use offset=4 to continue.]");
    expect(output.details).toMatchObject({ firstLine: 2, lastLine: 3, totalLines: 5 });
  });

  it("caps long files at 2000 lines", async () => {
    const lines = Array.from({ length: 2500 }, (_, index) => `line ${index + 1}`);
    fs.writeFileSync(path.join(dir, "big.txt"), lines.join("\n"));
    const output = text(
      await createReadTool(new PathGuard({ cwd: dir })).execute({ path: "big.txt" }, toolContext()),
    );
    expect(output).toContain("line 2000\n\n[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]");
    expect(output).not.toContain("line 2001");
  });

  it("returns images as image blocks", async () => {
    fs.writeFileSync(path.join(dir, "p.png"), Buffer.from([137, 80, 78, 71]));
    const output = await createReadTool(new PathGuard({ cwd: dir })).execute(
      { path: "p.png" },
      toolContext(),
    );
    expect(output.content[1]).toEqual({ type: "image", data: "iVBORw==", mimeType: "image/png" });
  });

  it("throws clear errors for bad calls", async () => {
    fs.writeFileSync(path.join(dir, "a.txt"), "x\n");
    const tool = createReadTool(new PathGuard({ cwd: dir }));
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

  it("cuts a line longer than 50 KB and says how to go on", async () => {
    fs.writeFileSync(path.join(dir, "wide.txt"), `${"x".repeat(60_000)}\nnext\n`);
    const output = text(
      await createReadTool(new PathGuard({ cwd: dir })).execute({ path: "wide.txt" }, toolContext()),
    );
    expect(output).toBe(
      `${"x".repeat(51_200)}\n\n[Line 1 is longer than 50.0 KB; showing its first 50.0 KB. Use bash (cut -c, head -c) for the rest of it. Use offset=2 for the next line.]`,
    );
  });

  it("returns an empty file as empty text, and lines up to the end without a note", async () => {
    fs.writeFileSync(path.join(dir, "empty.txt"), "");
    fs.writeFileSync(path.join(dir, "two.txt"), "a\nb");
    const tool = createReadTool(new PathGuard({ cwd: dir }));
    expect(text(await tool.execute({ path: "empty.txt" }, toolContext()))).toBe("");
    const output = await tool.execute({ path: "two.txt", offset: 2 }, toolContext());
    expect(text(output)).toBe("b");
    expect(output.details).toMatchObject({ firstLine: 2, lastLine: 2, totalLines: 2 });
    await expect(tool.execute({ path: "two.txt", offset: 3 }, toolContext())).rejects.toThrow(
      "Offset 3 is past the end of two.txt (2 lines)",
    );
  });

  it("pages through a file larger than the memory it may use without loading it", async () => {
    const file = path.join(dir, "huge.log");
    fs.writeFileSync(file, "line 1\nline 2\nline 3\nline 4\n");
    fs.truncateSync(file, 512 * 1024 * 1024); // sparse: a 512 MB line of zero bytes (1.5 GB in hostile-tools)
    fs.appendFileSync(file, "\nthe end\n");
    const tool = createReadTool(new PathGuard({ cwd: dir }));
    const before = process.memoryUsage().rss;
    expect(text(await tool.execute({ path: "huge.log", offset: 2, limit: 2 }, toolContext()))).toBe(
      "line 2\nline 3\n\n[Showing lines 2-3 of a 512.0 MB file. Use offset=4 to continue.]",
    );
    const zeros = text(await tool.execute({ path: "huge.log", offset: 5 }, toolContext()));
    expect(zeros.startsWith("\0".repeat(51_200))).toBe(true);
    expect(zeros).toContain("[Line 5 is longer than 50.0 KB; showing its first 50.0 KB.");
    const last = await tool.execute({ path: "huge.log", offset: 6 }, toolContext());
    expect(text(last)).toBe("the end");
    expect(last.details).toMatchObject({ firstLine: 6, lastLine: 6, totalLines: 6 });
    // The scan reads in 1 MB chunks: memory does not grow with the file (it would by 512 MB and more).
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  }, 60_000);

  it("refuses FIFOs, sockets and devices without opening or blocking on them", async () => {
    execFileSync("mkfifo", [path.join(dir, "pipe")]);
    const server = net.createServer().listen(path.join(dir, "sock"));
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const tool = createReadTool(new PathGuard({ cwd: dir, allowedFolders: ["/dev"] }));
      await expect(tool.execute({ path: "pipe" }, toolContext())).rejects.toMatchObject({
        code: "TOOL_NOT_REGULAR_FILE",
        message: "read: pipe is a FIFO (named pipe), not a regular file; read only works on regular files",
      });
      await expect(tool.execute({ path: "sock" }, toolContext())).rejects.toThrow("sock is a socket");
      await expect(tool.execute({ path: "/dev/zero" }, toolContext())).rejects.toThrow(
        "read: /dev/zero is a character device, not a regular file",
      );
    } finally {
      server.close();
    }
  });

  it("refuses paths outside the working folder, a symlink pointing out of it included", async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-outside-"));
    try {
      fs.writeFileSync(path.join(outside, "secret.txt"), "secret\n");
      fs.symlinkSync(path.join(outside, "secret.txt"), path.join(dir, "link.txt"));
      const tool = createReadTool(new PathGuard({ cwd: dir }));
      const relative = path.relative(dir, path.join(outside, "secret.txt"));
      for (const attempt of [relative, path.join(outside, "secret.txt"), "link.txt"]) {
        await expect(tool.execute({ path: attempt }, toolContext())).rejects.toMatchObject({
          code: "TOOL_PATH_OUTSIDE_FOLDER",
        });
      }
      await expect(tool.execute({ path: "link.txt" }, toolContext())).rejects.toThrow(
        `read: link.txt (really ${fs.realpathSync(outside)}/secret.txt) is outside the working folder`,
      );
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
