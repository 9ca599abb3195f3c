import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { processesWith } from "../../test/helpers/processes-with";
import { createBashTool } from "./bash-tool";
import { killAllToolProcesses } from "./tool-processes";
import { toolContext } from "./tool-test-context";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-bash-"));
});
afterEach(() => {
  killAllToolProcesses();
  fs.rmSync(dir, { recursive: true, force: true });
});

function text(output: { content: Array<{ type: string; text?: string }> }): string {
  return output.content.map((block) => block.text ?? "").join("");
}

/** A sleep duration no other process uses, to find the command's processes by their command line. */
function uniqueSleep(seconds: number): string {
  return `${seconds}.${process.pid}${Math.floor(Math.random() * 1e6)}`;
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

  it("takes a huge timeout as a long one, not as none or as an instant one", async () => {
    const output = await createBashTool(dir).execute(
      { command: "sleep 0.2; echo ok", timeout: 1e12 },
      toolContext(),
    );
    expect(text(output)).toBe("ok");
  });

  it("applies the default timeout to a call without one, and says so", async () => {
    const tool = createBashTool(dir, { defaultTimeoutSeconds: 1 });
    expect(tool.description).toContain("stopped after 1 seconds");
    await expect(tool.execute({ command: "sleep 30" }, toolContext())).rejects.toThrow(
      "Command timed out after 1 seconds (the default; pass a larger timeout for long commands)",
    );
  });

  it("returns at the timeout even when a grandchild in its own session holds the output", async () => {
    const escaped = uniqueSleep(77);
    const run = createBashTool(dir).execute(
      { command: `setsid sleep ${escaped} & sleep 30`, timeout: 1 },
      toolContext(),
    );
    await expect(run).rejects.toThrow("Command timed out after 1 seconds");
    expect(processesWith(`sleep ${escaped}`)).toEqual([]);
  }, 20_000);

  it("stops background processes that keep the output open after the command ends", async () => {
    const server = uniqueSleep(300);
    const output = await createBashTool(dir).execute(
      { command: `sleep ${server} & echo started` },
      toolContext(),
    );
    expect(text(output)).toContain("started\n\n[Stopped 1 background process still holding the output");
    expect(processesWith(`sleep ${server}`)).toEqual([]);
  }, 20_000);

  it("leaves a background process with redirected output running until arbor's tools are stopped", async () => {
    const server = uniqueSleep(300);
    const output = await createBashTool(dir).execute(
      { command: `sleep ${server} > /dev/null 2>&1 & echo started` },
      toolContext(),
    );
    expect(text(output)).toBe("started");
    // The background job may still be a forked shell about to exec `sleep` when `echo` returns.
    await vi.waitFor(() => expect(processesWith(`sleep ${server}`)).toHaveLength(1), { timeout: 5_000 });
    killAllToolProcesses();
    await vi.waitFor(() => expect(processesWith(`sleep ${server}`)).toEqual([]), { timeout: 5_000 });
  }, 20_000);

  it("stops when aborted, with every process of the command", async () => {
    const controller = new AbortController();
    const child = uniqueSleep(30);
    const run = createBashTool(dir).execute(
      { command: `setsid sleep ${child} & sleep 30` },
      toolContext(controller.signal),
    );
    setTimeout(() => controller.abort(), 50);
    await expect(run).rejects.toThrow("Command aborted");
    expect(processesWith(`sleep ${child}`)).toEqual([]);
  }, 20_000);

  it("keeps the tail of long output and saves the whole output to a private file", async () => {
    const output = await createBashTool(dir).execute({ command: "seq 1 3000" }, toolContext());
    const shown = text(output);
    expect(shown).toMatch(/^\[Output truncated: showing the last 2000 of 3000 lines\. Full output: /);
    expect(shown.endsWith("\n3000")).toBe(true);
    expect(shown).not.toContain("\n1000\n");
    const saved = (output.details as { fullOutputPath: string }).fullOutputPath;
    expect(fs.readFileSync(saved, "utf8").split("\n")).toHaveLength(3001);
    expect(fs.statSync(saved).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(saved)).mode & 0o777).toBe(0o700);
  });

  it("shows the end of a single line longer than the limit instead of nothing", async () => {
    const output = await createBashTool(dir).execute(
      { command: "head -c 5000000 /dev/zero | tr '\\0' a; echo; echo -n" },
      toolContext(),
    );
    const shown = text(output);
    expect(shown).toMatch(
      /^\[Output truncated: showing the last 50\.0 KB of 4\.8 MB; the last line alone is longer than 50\.0 KB\. Full output: \S+\]\na{51200}$/,
    );
    const saved = (output.details as { fullOutputPath: string }).fullOutputPath;
    expect(fs.statSync(saved).size).toBe(5_000_001);
  });
});
