import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { startWireServer, type TestLlmServer, textReply, toolCallReply } from "@arbor/providers/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { waitForOrphans } from "../src/find-processes-by-command-line";
import { createHostileTally } from "../src/hostile-figures";
import { type BuiltCliRun, hasStackTrace, minimalEnv, runBuiltCli } from "../src/run-built-cli";
import { watchPeakRss } from "../src/watch-peak-rss";

/**
 * Issue 11 §3–4: the built CLI runs tool calls scripted by the wire-level test server (through the
 * Anthropic SDK) that attack the tools: commands that never end, hold their output open, escape
 * their process group or print 600 MB; arbor killed by SIGTERM/SIGHUP/SIGINT mid-command; reads of
 * FIFOs, sockets, devices and a 1.5 GB file; edits of non-UTF-8 files; paths that leave the working
 * folder by `../`, absolute paths and symlinks. Each probe counts processes left running (by a marker
 * in their command line) and stack traces.
 */
const tally = createHostileTally("tools", "bash, read, write and edit tools");

let server: TestLlmServer;
let dir: string;
let project: string;
let outside: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  server = await startWireServer({ apiKey: "test-key" });
});
afterAll(() => {
  server.close();
  tally.report();
});
beforeEach(() => {
  server.reset();
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "arbor-hostile-tools-")));
  project = path.join(dir, "project");
  outside = path.join(dir, "outside");
  fs.mkdirSync(project);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, "secret.txt"), "TOP-SECRET-CONTENT\n");
  env = minimalEnv({
    HOME: dir,
    ARBOR_HOME: path.join(dir, "home"),
    ANTHROPIC_API_KEY: "test-key",
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
  });
  return () => fs.rmSync(dir, { recursive: true, force: true });
});

/** A `sleep` duration no other process uses: the marker that finds what a probe left running. */
function marker(seconds: number): string {
  return `${seconds}.${process.pid}${Math.floor(Math.random() * 1e6)}`;
}

interface ToolOutcome {
  run: BuiltCliRun;
  results: Array<{ toolName: string; isError: boolean; text: string }>;
}

/** Runs `arbor -p --json` on scripted tool calls, then a final answer; returns the tool results. */
async function runTools(
  calls: Array<[string, Record<string, unknown>]>,
  options: { args?: string[]; onSpawn?: Parameters<typeof runBuiltCli>[1]["onSpawn"] } = {},
): Promise<ToolOutcome> {
  server.enqueue(...calls.map(([name, args]) => toolCallReply(name, args)), textReply("done"));
  const run = await runBuiltCli(["-p", "go", "--json", ...(options.args ?? ["--no-session"])], {
    env,
    cwd: project,
    timeoutMs: 90_000,
    ...(options.onSpawn ? { onSpawn: options.onSpawn } : {}),
  });
  const results = run.stdout
    .split("\n")
    .filter((line) => line.includes('"type":"tool_execution_end"'))
    .map((line) => {
      const event = JSON.parse(line) as {
        toolName: string;
        isError: boolean;
        result: { content: Array<{ text?: string }> };
      };
      return {
        toolName: event.toolName,
        isError: event.isError,
        text: event.result.content.map((block) => block.text ?? "").join(""),
      };
    });
  return { run, results };
}

/** Counts the probe: processes with `markers` still running after the CLI exited, stack traces. */
async function probe(run: BuiltCliRun, markers: readonly string[] = []): Promise<number[]> {
  const orphans: number[] = [];
  for (const mark of markers) orphans.push(...(await waitForOrphans(mark)));
  for (const pid of orphans) process.kill(pid, "SIGKILL");
  tally.count({
    orphanedProcesses: orphans.length,
    stackTraceCrashes: hasStackTrace(run.stdout + run.stderr) ? 1 : 0,
  });
  return orphans;
}

describe("hostile input: the bash tool is bounded", () => {
  it("a timeout kills the command and a grandchild in its own session that holds the output", async () => {
    const escaped = marker(77);
    const { run, results } = await runTools([
      ["bash", { command: `setsid sleep ${escaped} & sleep 30`, timeout: 1 }],
    ]);
    expect(await probe(run, [`sleep ${escaped}`])).toEqual([]);
    expect(run.timedOut).toBe(false);
    expect(run.code).toBe(0);
    expect(results).toEqual([
      { toolName: "bash", isError: true, text: "(no output)\n\nCommand timed out after 1 seconds" },
    ]);
  });

  it("`server &` does not hold the call open, and nothing outlives arbor", async () => {
    const server1 = marker(300);
    const server2 = marker(301);
    const { run, results } = await runTools([
      ["bash", { command: `sleep ${server1} & echo started` }],
      ["bash", { command: `sleep ${server2} > /dev/null 2>&1 & echo detached` }],
    ]);
    expect(await probe(run, [`sleep ${server1}`, `sleep ${server2}`])).toEqual([]);
    expect(run.code).toBe(0);
    expect(results[0]?.text).toMatch(/^started\n\n\[Stopped 1 background process still holding the output/);
    expect(results[1]).toEqual({ toolName: "bash", isError: false, text: "detached" });
  });

  for (const [signal, code] of [
    ["SIGTERM", 143],
    ["SIGHUP", 129],
    ["SIGINT", 130],
  ] as const) {
    it(`${signal} to arbor during a command kills the command and releases the session lock`, async () => {
      const sleeper = marker(300);
      const sessionFile = path.join(dir, "session.jsonl");
      const { run, results } = await runTools([["bash", { command: `sleep ${sleeper}` }]], {
        args: ["--session", sessionFile],
        onSpawn: (child) => {
          void waitForCommand(`sleep ${sleeper}`).then(() => child.kill(signal));
        },
      });
      expect(await probe(run, [`sleep ${sleeper}`])).toEqual([]);
      expect({ code: run.code, signal: run.signal }).toEqual({ code, signal: null });
      expect(run.stderr).toBe(signal === "SIGINT" ? "arbor: aborted\n" : `arbor: stopped by ${signal}\n`);
      expect(results).toEqual([
        { toolName: "bash", isError: true, text: "The run was aborted before this tool call finished." },
      ]);
      expect(fs.existsSync(`${sessionFile}.lock`)).toBe(false);
      // The aborted call's result is in the session, so the next request answers every tool call.
      expect(fs.readFileSync(sessionFile, "utf8")).toContain(
        "The run was aborted before this tool call finished.",
      );
      // The session is whole and free: the next run continues it.
      server.reset();
      server.enqueue(textReply("still here"));
      const next = await runBuiltCli(["-p", "again", "--session", sessionFile], { env, cwd: project });
      expect(next.stderr).toBe("");
      expect(next.stdout).toBe("still here\n");
    });
  }

  it("600 MB of output: no crash, the tail in the result, the whole output spilled, memory flat", async () => {
    const peaks: number[] = [];
    const outcomes: ToolOutcome[] = [];
    for (const bytes of [6_000_000, 600_000_000]) {
      server.reset();
      let watch: ReturnType<typeof watchPeakRss> | undefined;
      const outcome = await runTools([["bash", { command: `head -c ${bytes} /dev/zero | tr '\\0' a` }]], {
        args: ["--session", path.join(dir, `big-${bytes}.jsonl`)],
        onSpawn: (child) => {
          watch = watchPeakRss(child.pid as number);
        },
      });
      watch?.stop();
      await probe(outcome.run);
      peaks.push(watch?.peakBytes() ?? 0);
      outcomes.push(outcome);
    }
    const big = outcomes[1] as ToolOutcome;
    expect(big.run.code).toBe(0);
    const text = big.results[0]?.text ?? "";
    expect(text).toMatch(
      /^\[Output truncated: showing the last 50\.0 KB of 572\.2 MB; the last line alone is longer than 50\.0 KB\. Full output: \S+\]\na{51200}$/,
    );
    // The session holds the tool result (today: none, after "Cannot create a string longer than ...").
    const lines = fs.readFileSync(path.join(dir, "big-600000000.jsonl"), "utf8").trim().split("\n");
    expect(lines.some((line) => line.includes('"role":"toolResult"') && line.includes("572.2 MB"))).toBe(
      true,
    );
    // The spill file was private and is gone with the process.
    const spill = /Full output: (\S+)\]/.exec(text)?.[1] as string;
    expect(spill).toMatch(/arbor-tool-output-/);
    expect(fs.existsSync(spill)).toBe(false);
    // Peak memory does not grow with the output: 100x the output, about the same peak.
    const [small, large] = peaks as [number, number];
    expect(small).toBeGreaterThan(0);
    expect(large - small).toBeLessThan(64 * 1024 * 1024);
    console.log(
      `peak RSS: ${Math.round(small / 2 ** 20)} MB for 6 MB of output, ${Math.round(large / 2 ** 20)} MB for 600 MB`,
    );
  }, 180_000);

  it("a single 5 MB line is shown truncated, not as (no output)", async () => {
    const { run, results } = await runTools([
      ["bash", { command: "head -c 5000000 /dev/zero | tr '\\0' b" }],
    ]);
    await probe(run);
    expect(results[0]?.text).toMatch(
      /^\[Output truncated: showing the last 50\.0 KB of 4\.8 MB; the last line alone is longer than 50\.0 KB\. Full output: \S+\]\nb{51200}$/,
    );
  });
});

/** Resolves once a process with `marker` in its command line runs. */
async function waitForCommand(mark: string): Promise<void> {
  const { findProcessesByCommandLine } = await import("../src/find-processes-by-command-line");
  const deadline = Date.now() + 30_000;
  while (findProcessesByCommandLine(mark).length === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("hostile input: read, write and edit", () => {
  it("refuses FIFOs, sockets and devices with a tool error instead of hanging", async () => {
    execFileSync("mkfifo", [path.join(project, "pipe")]);
    const socketServer = net.createServer().listen(path.join(project, "sock"));
    await new Promise((resolve) => socketServer.once("listening", resolve));
    fs.symlinkSync("/dev/zero", path.join(project, "zero"));
    try {
      const { run, results } = await runTools([
        ["read", { path: "pipe" }],
        ["read", { path: "sock" }],
        ["write", { path: "pipe", content: "x" }],
        ["edit", { path: "pipe", oldText: "a", newText: "b" }],
        ["read", { path: "zero" }],
        ["read", { path: "/dev/zero" }],
      ]);
      await probe(run);
      expect(run.code).toBe(0);
      expect(results.map((result) => [result.isError, result.text])).toEqual([
        [true, "read: pipe is a FIFO (named pipe), not a regular file; read only works on regular files"],
        [true, "read: sock is a socket, not a regular file; read only works on regular files"],
        [true, "write: pipe is a FIFO (named pipe), not a regular file; write only works on regular files"],
        [true, "edit: pipe is a FIFO (named pipe), not a regular file; edit only works on regular files"],
        [true, expect.stringContaining("read: zero (really /dev/zero) is outside the working folder")],
        [true, expect.stringContaining("read: /dev/zero is outside the working folder")],
      ]);
    } finally {
      socketServer.close();
    }
    for (let index = 0; index < 5; index++) tally.count();
  });

  it("pages through a 1.5 GB file with offset and limit in bounded memory", async () => {
    const file = path.join(project, "huge.log");
    fs.writeFileSync(file, "line 1\nline 2\nline 3\n");
    fs.truncateSync(file, 1536 * 1024 * 1024);
    fs.appendFileSync(file, "\nlast line\n");
    let watch: ReturnType<typeof watchPeakRss> | undefined;
    const { run, results } = await runTools(
      [
        ["read", { path: "huge.log", offset: 2, limit: 2 }],
        ["read", { path: "huge.log", offset: 5 }],
      ],
      {
        onSpawn: (child) => {
          watch = watchPeakRss(child.pid as number);
        },
      },
    );
    watch?.stop();
    await probe(run);
    expect(results.map((result) => result.text)).toEqual([
      "line 2\nline 3\n\n[Showing lines 2-3 of a 1.5 GB file. Use offset=4 to continue.]",
      "last line",
    ]);
    expect(watch?.peakBytes() ?? 0).toBeLessThan(300 * 1024 * 1024);
    tally.count();
  }, 120_000);

  it("edit refuses a file that is not valid UTF-8 and leaves it byte for byte", async () => {
    const bytes = Buffer.concat([Buffer.from("price = 10 "), Buffer.from([0xa3, 0xff]), Buffer.from("\n")]);
    fs.writeFileSync(path.join(project, "legacy.txt"), bytes);
    const { run, results } = await runTools([["edit", { path: "legacy.txt", oldText: "10", newText: "12" }]]);
    await probe(run);
    expect(results[0]).toEqual({
      toolName: "edit",
      isError: true,
      text: "edit: legacy.txt is not valid UTF-8 (invalid byte 0xa3 at byte offset 11); edit only changes UTF-8 text files, so nothing was changed",
    });
    expect(fs.readFileSync(path.join(project, "legacy.txt"))).toEqual(bytes);
  });

  it("keeps read, write and edit inside the working folder: ../, absolute paths and symlinks", async () => {
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(project, "notes.txt"));
    fs.symlinkSync(outside, path.join(project, "docs"));
    fs.symlinkSync(path.join(outside, "planted.txt"), path.join(project, "new.txt"));
    const attempts: Array<[string, Record<string, unknown>]> = [
      ["read", { path: "../outside/secret.txt" }],
      ["read", { path: path.join(outside, "secret.txt") }],
      ["read", { path: "notes.txt" }],
      ["read", { path: "docs/secret.txt" }],
      ["write", { path: "../outside/planted.txt", content: "x" }],
      ["write", { path: "new.txt", content: "x" }],
      ["write", { path: "docs/deeper/planted.txt", content: "x" }],
      ["edit", { path: "notes.txt", oldText: "TOP", newText: "LOW" }],
      ["read", { path: "~/.bashrc" }],
    ];
    const before = fs.readdirSync(outside).sort();
    const { run, results } = await runTools(attempts);
    await probe(run);
    expect(run.code).toBe(0);
    expect(results).toHaveLength(attempts.length);
    for (const result of results) {
      expect(result.isError).toBe(true);
      expect(result.text).toContain("is outside the working folder");
    }
    expect(run.stdout).not.toContain("TOP-SECRET-CONTENT");
    expect(JSON.stringify(server.requests.map((request) => request.body))).not.toContain(
      "TOP-SECRET-CONTENT",
    );
    expect(fs.readdirSync(outside).sort()).toEqual(before);
    expect(fs.readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("TOP-SECRET-CONTENT\n");
    for (let index = 1; index < attempts.length; index++) tally.count();
  });
});
