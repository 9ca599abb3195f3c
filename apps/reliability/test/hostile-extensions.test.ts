import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startWireServer, type TestLlmServer, textReply, toolCallReply } from "@arbor/providers/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHostileTally } from "../src/hostile-figures";
import { type BuiltCliRun, hasStackTrace, minimalEnv, runBuiltCli } from "../src/run-built-cli";

/**
 * Issue 11 §8: extensions cannot hang or corrupt a run. Extension files listed in the user's own
 * settings (`$ARBOR_HOME/settings.json`, trusted by definition) that never finish importing or
 * setting up, that return garbage from the `context` hook, or that vandalize the messages they are
 * handed, driven through the built CLI in print and interactive mode against the wire-level server.
 */
const tally = createHostileTally("extensions", "extensions that hang or corrupt a run");

/** Short, so the hanging cases end quickly; generous enough for a loaded machine to import a file. */
const TIMEOUT_MS = 1500;

const EXTENSIONS: Record<string, string> = {
  "never-import.mjs":
    'await new Promise(() => {});\nexport default { apiVersion: 1, name: "never-import", setup() {} };\n',
  "never-import-with-timer.mjs":
    'await new Promise(() => { setInterval(() => {}, 1000); });\nexport default { apiVersion: 1, name: "timer", setup() {} };\n',
  "never-setup.mjs":
    'export default { apiVersion: 1, name: "never-setup", setup() { setInterval(() => {}, 1000); return new Promise(() => {}); } };\n',
  "garbage-context.mjs":
    'export default { apiVersion: 1, name: "garbler", setup(api) { api.on("context", () => ({ messages: "x" })); } };\n',
  "non-messages-context.mjs":
    'export default { apiVersion: 1, name: "garbler", setup(api) { api.on("context", () => ({ messages: [1, "two", { nope: true }] })); } };\n',
  "vandal.mjs": `export default { apiVersion: 1, name: "vandal", setup(api) {
  api.on("message_end", (event) => { event.message.content = "not an array"; });
  api.on("tool_execution_end", (event) => { event.result.content = 42; });
  api.on("before_provider_request", (event) => { event.request.messages.length = 0; });
} };\n`,
};

let server: TestLlmServer;
let dir: string;
let project: string;
let home: string;
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
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "arbor-hostile-extensions-")));
  project = path.join(dir, "project");
  home = path.join(dir, "home");
  fs.mkdirSync(project);
  fs.mkdirSync(home);
  for (const [name, source] of Object.entries(EXTENSIONS)) fs.writeFileSync(path.join(home, name), source);
  env = minimalEnv({
    HOME: dir,
    ARBOR_HOME: home,
    ANTHROPIC_API_KEY: "test-key",
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
  });
  return () => fs.rmSync(dir, { recursive: true, force: true });
});

/** Lists `extension` in the user's settings (relative paths resolve against `$ARBOR_HOME`). */
function useExtension(extension: string): void {
  const settings = { extensions: [`./${extension}`], extensionTimeoutMs: TIMEOUT_MS };
  fs.writeFileSync(path.join(home, "settings.json"), JSON.stringify(settings));
}

function probe(run: BuiltCliRun): BuiltCliRun {
  tally.count({ stackTraceCrashes: hasStackTrace(run.stdout + run.stderr) ? 1 : 0 });
  expect(hasStackTrace(run.stdout + run.stderr)).toBe(false);
  expect(run.timedOut).toBe(false);
  return run;
}

describe("hostile extensions: an import or setup that never settles", () => {
  const cases: Array<[string, RegExp]> = [
    ["never-import.mjs", /never-import\.mjs: import did not finish within 1500 ms/],
    ["never-import-with-timer.mjs", /never-import-with-timer\.mjs: import did not finish within 1500 ms/],
    ["never-setup.mjs", /Extension "never-setup" \(.*never-setup\.mjs\) did not finish setup within 1500 ms/],
  ];

  it.each(cases)(
    "%s: a typed timeout error and exit 1, in print and interactive mode",
    async (file, message) => {
      useExtension(file);
      for (const args of [["-p", "hello"], []]) {
        const run = probe(
          await runBuiltCli(args, { env, cwd: project, input: "hello\n", timeoutMs: 60_000 }),
        );
        expect(run.code).toBe(1);
        expect(run.stderr).toMatch(new RegExp(`^arbor: .*${message.source}.*extensionTimeoutMs`, "m"));
      }
      expect(server.requests).toHaveLength(0);
    },
  );
});

describe("hostile extensions: garbage from the context hook", () => {
  it.each(["garbage-context.mjs", "non-messages-context.mjs"])(
    "%s: a hook error on stderr, and the request keeps the original messages",
    async (file) => {
      useExtension(file);
      server.enqueue(textReply("the answer"));
      const run = probe(await runBuiltCli(["-p", "what is in the box?"], { env, cwd: project }));
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("the answer\n");
      expect(run.stderr).toMatch(
        /^arbor: Extension "garbler" returned an invalid result from hook "context" \(ignored\)/m,
      );
      expect(JSON.stringify(server.requests[0]?.body)).toContain("what is in the box?");

      server.reset();
      server.enqueue(textReply("again"));
      const json = probe(await runBuiltCli(["-p", "still there?", "--json"], { env, cwd: project }));
      expect(json.code).toBe(0);
      const errors = json.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line))
        .filter((event) => event.type === "hook_error");
      expect(errors.map((event) => [event.hookName, event.extensionId, event.error.code])).toEqual([
        ["context", "garbler", "HOOK_INVALID_RESULT"],
      ]);
      expect(JSON.stringify(server.requests[0]?.body)).toContain("still there?");
    },
  );
});

describe("hostile extensions: handlers that mutate what they are handed", () => {
  it("a handler turning message content into a string cannot crash the run", async () => {
    useExtension("vandal.mjs");
    fs.writeFileSync(path.join(project, "a.txt"), "contents of a\n");
    server.enqueue(toolCallReply("read", { path: "a.txt" }), textReply("read it"));
    const session = path.join(dir, "vandal.jsonl");
    const run = probe(await runBuiltCli(["-p", "read a.txt", "--session", session], { env, cwd: project }));
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("read it\n");
    expect(JSON.stringify(server.requests[1]?.body)).toContain("contents of a");
    const roles = fs
      .readFileSync(session, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
      .flatMap((entry) => (entry.type === "message" ? [entry.message.role] : []));
    expect(roles).toEqual(["user", "assistant", "toolResult", "assistant"]);
  });
});
