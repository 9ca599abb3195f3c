import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startWireServer, type TestLlmServer, textReply, toolCallReply } from "@arbor/providers/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertCliBuilt } from "./helpers/cli-paths";
import { PtySession } from "./helpers/pty-session";
import { listSessionFiles, readJsonlLines } from "./helpers/session-files";

let server: TestLlmServer;
let dir: string;
let project: string;
let pty: PtySession | undefined;

beforeAll(async () => {
  assertCliBuilt();
  server = await startWireServer({ apiKey: "test-key" });
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "arbor-feedback-")));
  project = path.join(dir, "project");
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, "a.txt"), "one\ntwo\nthree\n");
});
afterEach(() => {
  pty?.kill();
  pty = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

function start(extraEnv: NodeJS.ProcessEnv = {}): PtySession {
  pty = new PtySession(["--model", "anthropic/claude-sonnet-4-6"], {
    cwd: project,
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      ARBOR_HOME: path.join(dir, "home"),
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
      ...extraEnv,
    },
  });
  return pty;
}

describe("feedback while working (terminal)", () => {
  it("shows an edit's changed lines, sets /thinking, and a slow first token gets a spinner with the time", async () => {
    const tty = start();
    let at = await tty.waitFor("› ");
    server.enqueue(
      toolCallReply("edit", { path: "a.txt", oldText: "two", newText: "TWO" }),
      textReply("Done.", { eventDelayMs: 1_300 }),
    );
    tty.sendLine("shout two");
    at = await tty.waitFor("Done.", { from: at, timeoutMs: 20_000 });
    const run = tty.screen.slice(0, at);
    expect(run).toContain("● edit(a.txt)");
    expect(run).toMatch(/✓ Edited a\.txt \(lines 2-2\)\n +-two\n +\+TWO\n/);
    expect(run).toMatch(/Waiting for the model… 1s/);
    at = await tty.waitFor("› ", { from: at });

    tty.sendLine("/thinking high");
    at = await tty.waitFor("Thinking: high", { from: at });
    tty.sendLine("/thinking");
    at = await tty.waitFor("Thinking: high (choose with /thinking off|minimal|low|medium|high)", {
      from: at,
    });
    tty.sendLine("/quit");
    expect(await tty.exited).toBe(0);
    const [file] = listSessionFiles(path.join(dir, "home"));
    expect(readJsonlLines(file as string).filter((entry) => entry.type === "thinking_level_change")).toEqual([
      expect.objectContaining({ thinkingLevel: "high" }),
    ]);
  });

  it("FORCE_COLOR colors the output next to NO_COLOR; NO_COLOR alone turns it off", async () => {
    const plain = start({ NO_COLOR: "1" });
    await plain.waitFor("› ");
    plain.sendLine("/quit");
    await plain.exited;
    expect(plain.rawOutput).not.toContain("\u001b[1m");
    const forced = start({ NO_COLOR: "1", FORCE_COLOR: "1" });
    await forced.waitFor("› ");
    forced.sendLine("/quit");
    await forced.exited;
    expect(forced.rawOutput).toContain("\u001b[1marbor · ");
  });
});
