import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startWireServer, type TestLlmServer, textReply, toolCallReply } from "@arbor/providers/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertCliBuilt } from "./helpers/cli-paths";
import { processesWith } from "./helpers/processes-with";
import { PtySession } from "./helpers/pty-session";

let server: TestLlmServer;
let dir: string;
let project: string;
let outside: string;
let pty: PtySession | undefined;

beforeAll(async () => {
  assertCliBuilt();
  server = await startWireServer({ apiKey: "test-key" });
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "arbor-tools-tty-")));
  project = path.join(dir, "project");
  outside = path.join(dir, "outside");
  fs.mkdirSync(project);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, "notes.txt"), "outside notes\n");
});
afterEach(() => {
  pty?.kill();
  pty = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

function start(args: string[] = []): PtySession {
  pty = new PtySession(args, {
    cwd: project,
    columns: 300,
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      ARBOR_HOME: path.join(dir, "home"),
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
    },
  });
  return pty;
}

async function waitUntil(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("safety in the interactive mode", () => {
  it("asks before a file tool leaves the working folder: no refuses, yes once, always for the folder", async () => {
    const notes = path.join(outside, "notes.txt");
    const tty = start();
    let at = await tty.waitFor("› ");
    server.enqueue(toolCallReply("read", { path: notes }), textReply("Refused."));
    tty.sendLine("read the notes");
    at = await tty.waitFor(`read wants to read ${notes}, outside the working folder. Allow?`, { from: at });
    tty.sendLine("n");
    at = await tty.waitFor("Refused.", { from: at });
    expect(tty.screen.slice(0, at)).toContain(
      `✗ read: ${notes} is outside the working folder ${project}, and the user did not allow it`,
    );

    server.enqueue(toolCallReply("read", { path: notes }), textReply("Read once."));
    tty.sendLine("again");
    at = await tty.waitFor("Allow?", { from: at });
    tty.sendLine("y");
    at = await tty.waitFor("Read once.", { from: at });
    expect(tty.screen.slice(0, at)).toContain("✓ outside notes");

    server.enqueue(
      toolCallReply("write", { path: path.join(outside, "new.txt"), content: "x" }),
      toolCallReply("read", { path: notes }),
      textReply("Done outside."),
    );
    tty.sendLine("write there");
    at = await tty.waitFor(`write wants to write ${path.join(outside, "new.txt")}`, { from: at });
    tty.sendLine("a");
    at = await tty.waitFor("Done outside.", { from: at });
    // The folder was allowed for the rest of the run: the read after it was not asked about.
    expect(tty.screen.slice(0, at).match(/Allow\?/g) ?? []).toHaveLength(3);
    expect(tty.screen.slice(0, at)).toMatch(
      /✓ Created \S+new\.txt \(1 bytes\)[\s\S]*✓ outside notes[\s\S]*Done outside\./,
    );
    expect(fs.readFileSync(path.join(outside, "new.txt"), "utf8")).toBe("x");
  });

  it("closing the terminal during a command kills the command and releases the session lock", async () => {
    const sleeper = `300.${process.pid}${Math.floor(Math.random() * 1e6)}`;
    const sessionFile = path.join(dir, "session.jsonl");
    const tty = start(["--session", sessionFile]);
    const at = await tty.waitFor("› ");
    server.enqueue(toolCallReply("bash", { command: `sleep ${sleeper}` }), textReply("never"));
    tty.sendLine("wait a while");
    await tty.waitFor(`bash(sleep ${sleeper})`, { from: at });
    await waitUntil(() => processesWith(`sleep ${sleeper}`).length > 0, "the command runs");
    expect(fs.existsSync(`${sessionFile}.lock`)).toBe(true);
    tty.kill(); // the terminal goes away: arbor gets SIGHUP
    pty = undefined;
    await waitUntil(() => processesWith(`sleep ${sleeper}`).length === 0, "the command is gone");
    await waitUntil(() => !fs.existsSync(`${sessionFile}.lock`), "the session lock is released");
  });

  it("shows hostile model text and tool output inert in a real terminal, and keeps its own colors", async () => {
    const ESC = "\u001b";
    const hostile = `before${ESC}]52;c;cm0gLXJmIH4=\u0007${ESC}]0;PWNED${ESC}\\${ESC}[2J${ESC}c${ESC}[?1049h${ESC}[8m\u009b2J\u202eafter`;
    const tty = start();
    const at = await tty.waitFor("› ");
    server.enqueue(
      toolCallReply("bash", { command: "printf 'out\\033]0;T\\007\\033[2Jput'" }),
      textReply(hostile),
    );
    tty.sendLine("go");
    await tty.waitFor(/beforeafter[\s\S]*› /, { from: at });
    const raw = tty.rawOutput;
    for (const sequence of [
      `${ESC}]`,
      `${ESC}[2J`,
      `${ESC}c`,
      `${ESC}[?1049h`,
      `${ESC}[8m`,
      "\u009b",
      "\u202e",
    ]) {
      expect(raw).not.toContain(sequence);
    }
    expect(tty.screen).toContain("✓ output");
    // Arbor's own styling still reaches the terminal: the bold prompt and the dim status line.
    expect(raw).toContain(`${ESC}[1m› ${ESC}[22m`);
    expect(raw).toContain(`${ESC}[2manthropic/claude-sonnet-4-6 · context`);
  });
});
