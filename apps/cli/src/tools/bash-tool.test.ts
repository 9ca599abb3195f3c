import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBashTool } from "./bash-tool";
import { toolContext } from "./tool-test-context";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-bash-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function text(output: { content: Array<{ type: string; text?: string }> }): string {
  return output.content.map((block) => block.text ?? "").join("");
}

describe("bash tool", () => {
  it("runs in the working folder and combines stdout and stderr", async () => {
    const output = await createBashTool(dir).execute({ command: "pwd; echo oops >&2" }, toolContext());
    expect(text(output)).toBe(`${fs.realpathSync(dir)}\noops`);
  });

  it("says when there is no output", async () => {
    expect(text(await createBashTool(dir).execute({ command: "true" }, toolContext()))).toBe("(no output)");
  });

  it("throws with the output and exit code on failure", async () => {
    await expect(
      createBashTool(dir).execute({ command: "echo failing; exit 3" }, toolContext()),
    ).rejects.toThrow("failing\n\nCommand exited with code 3");
  });

  it("kills the command at the timeout", async () => {
    await expect(
      createBashTool(dir).execute({ command: "echo start; sleep 30", timeout: 1 }, toolContext()),
    ).rejects.toThrow("start\n\nCommand timed out after 1 seconds");
  });

  it("stops when aborted", async () => {
    const controller = new AbortController();
    const run = createBashTool(dir).execute({ command: "sleep 30" }, toolContext(controller.signal));
    setTimeout(() => controller.abort(), 50);
    await expect(run).rejects.toThrow("Command aborted");
  });

  it("keeps the tail of long output and saves the rest", async () => {
    const output = await createBashTool(dir).execute({ command: "seq 1 3000" }, toolContext());
    const shown = text(output);
    expect(shown).toMatch(/^\[Output truncated: showing the last 2000 of 3000 lines\. Full output: /);
    expect(shown.endsWith("\n3000")).toBe(true);
    expect(shown).not.toContain("\n1000\n");
    const saved = (output.details as { fullOutputPath: string }).fullOutputPath;
    expect(fs.readFileSync(saved, "utf8").split("\n")).toHaveLength(3001);
    fs.rmSync(saved);
  });
});
