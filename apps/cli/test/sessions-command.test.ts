import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startWireServer, type TestLlmServer, textReply } from "@arbor/providers/testing";
import { createSessionStore } from "@arbor/session-store";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertCliBuilt } from "./helpers/cli-paths";
import { isolatedEnv, runCliProcess } from "./helpers/run-cli-process";
import { readJsonlLines } from "./helpers/session-files";

let server: TestLlmServer;
let dir: string;
let home: string;
let project: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  assertCliBuilt();
  server = await startWireServer({ apiKey: "test-key" });
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "arbor-sessions-")));
  home = path.join(dir, "home");
  project = path.join(dir, "project");
  fs.mkdirSync(project);
  env = isolatedEnv({
    HOME: dir,
    ARBOR_HOME: home,
    ANTHROPIC_API_KEY: "test-key",
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
  });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A session of `cwd` written by the session store, as the agent writes them. */
function writeSession(cwd: string, text: string, name?: string): { id: string; file: string } {
  const slug = `--${cwd.slice(1).replace(/\//g, "-")}--`;
  const store = createSessionStore({ cwd, dir: path.join(home, "sessions", slug) });
  store.appendMessage({ role: "user", content: text, timestamp: Date.now() });
  store.appendModelChange("anthropic", "claude-haiku-4-5");
  if (name) store.appendSessionInfo(name);
  const result = { id: store.sessionId, file: store.path as string };
  store.close();
  return result;
}

describe("arbor sessions and short session ids", () => {
  it("lists this folder's sessions with short ids that differ, though started in the same minute", async () => {
    const sessions = [
      writeSession(project, "first task"),
      writeSession(project, "second task", "the named one"),
      writeSession(project, "third task"),
    ];
    writeSession(path.join(dir, "elsewhere"), "other folder");
    expect(new Set(sessions.map((session) => session.id.slice(0, 8))).size).toBe(1); // UUIDv7: same start
    const run = await runCliProcess(["sessions"], { env, cwd: project });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+STARTED\s+LAST ACTIVE\s+ENTRIES\s+SIZE\s+MODEL\s+NAME$/);
    expect(lines).toHaveLength(4);
    const shortIds = lines.slice(1).map((line) => line.split(/\s+/)[0]);
    expect(new Set(shortIds).size).toBe(3);
    for (const session of sessions) {
      const short = session.id.replace(/-/g, "").slice(-8);
      const line = lines.find((candidate) => candidate.startsWith(short));
      expect(line).toMatch(
        /\d{4}-\d\d-\d\d \d\d:\d\d +\d{4}-\d\d-\d\d \d\d:\d\d +\d+ +[\d.]+ (bytes|KB) +anthropic\/claude-haiku-4-5 /,
      );
      expect(line).toContain(session === sessions[1] ? "the named one" : "task”");
    }
    expect(run.stdout).not.toContain("other folder");

    const all = await runCliProcess(["sessions", "--all", "--json"], { env, cwd: project });
    const listed = JSON.parse(all.stdout).sessions as Array<{ id: string; cwd: string; entries: number }>;
    expect(listed).toHaveLength(4);
    expect(listed.find((session) => session.cwd === path.join(dir, "elsewhere"))).toMatchObject({
      entries: 2,
    });
  });

  it("accepts a short id, or a prefix of it, where a session file goes: inspect, tree, --session", async () => {
    const target = writeSession(project, "the one to find", "target");
    writeSession(project, "another");
    const short = target.id.replace(/-/g, "").slice(-8);
    const inspect = await runCliProcess(["inspect", short, "--json"], { env, cwd: project });
    expect(inspect.stderr).toBe("");
    expect(JSON.parse(inspect.stdout).sessionId).toBe(target.id);
    const tree = await runCliProcess(["tree", short.slice(0, 5)], { env, cwd: project });
    expect(tree.stdout).toContain(`Session ${target.id} · "target"`);
    // From another folder, the id is found in every folder's sessions.
    const elsewhere = await runCliProcess(["inspect", short, "--json"], { env, cwd: dir });
    expect(JSON.parse(elsewhere.stdout).sessionId).toBe(target.id);

    server.enqueue(textReply("Continued."));
    const print = await runCliProcess(["-p", "go on", "--session", short], { env, cwd: project });
    expect(print.stderr).toBe("");
    expect(print.stdout).toBe("Continued.\n");
    expect(readJsonlLines(target.file).at(-1)).toMatchObject({
      type: "message",
      message: { role: "assistant" },
    });

    const missing = await runCliProcess(["inspect", "cafe1234"], { env, cwd: project });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      `arbor: cafe1234: no such session file, and no session under ${home}/sessions has this id (arbor sessions --all lists them)\n`,
    );
  });

  it("says so when a folder has no sessions", async () => {
    const run = await runCliProcess(["sessions"], { env, cwd: project });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`No sessions for ${project} (arbor sessions --all lists every folder's).\n`);
  });
});
