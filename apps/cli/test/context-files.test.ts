import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startWireServer, type TestLlmServer, textReply } from "@arbor/providers/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertCliBuilt, REPO_ROOT } from "./helpers/cli-paths";
import { isolatedEnv, runCliProcess } from "./helpers/run-cli-process";

let server: TestLlmServer;
let dir: string;
let repo: string;
let cwd: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  assertCliBuilt();
  server = await startWireServer({ apiKey: "test-key" });
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "arbor-context-")));
  repo = path.join(dir, "repo");
  cwd = path.join(repo, "app");
  fs.mkdirSync(path.join(repo, ".git"), { recursive: true });
  fs.mkdirSync(cwd);
  fs.mkdirSync(path.join(dir, "home"));
  fs.writeFileSync(path.join(dir, "home", "AGENTS.md"), "USER RULE: answer in English.\n");
  fs.writeFileSync(path.join(repo, "AGENTS.md"), "REPO RULE: run pnpm test.\n");
  // An escape sequence in a context file reaches the model as written, never the terminal.
  fs.writeFileSync(path.join(cwd, "CLAUDE.md"), "APP RULE: \u001b]52;c;aGk=\u0007keep it small.\n");
  env = isolatedEnv({
    HOME: dir,
    ARBOR_HOME: path.join(dir, "home"),
    ANTHROPIC_API_KEY: "test-key",
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
  });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function systemPromptSent(): string {
  const body = server.requests.at(-1)?.body as { system?: Array<{ text: string }> | string };
  return typeof body.system === "string"
    ? body.system
    : (body.system ?? []).map((part) => part.text).join("");
}

describe("context files and system prompt flags", () => {
  it("sends $ARBOR_HOME/AGENTS.md, then the repository's files down to the working folder", async () => {
    server.enqueue(textReply("ok"));
    const run = await runCliProcess(["-p", "hi", "--no-session"], { env, cwd });
    expect(run.stderr).toBe("");
    const system = systemPromptSent();
    const order = ["You are arbor", "USER RULE", "REPO RULE", "APP RULE", "Environment:"].map((text) =>
      system.indexOf(text),
    );
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(system).toContain(`Instructions from ${path.join(cwd, "CLAUDE.md")}:`);
    expect(system).toContain("\u001b]52;c;aGk=\u0007keep it small."); // the model gets the text as written
  });

  it("--system-prompt FILE replaces arbor's instructions, --append-system-prompt TEXT follows, --no-context-files", async () => {
    fs.writeFileSync(path.join(cwd, "reviewer.md"), "You are a strict reviewer.\n");
    server.enqueue(textReply("ok"), textReply("ok"));
    await runCliProcess(
      ["-p", "hi", "--no-session", "--system-prompt", "reviewer.md", "--append-system-prompt", "Be brief."],
      { env, cwd },
    );
    const custom = systemPromptSent();
    expect(custom.startsWith("You are a strict reviewer.")).toBe(true);
    expect(custom).not.toContain("You are arbor");
    expect(custom.indexOf("APP RULE")).toBeLessThan(custom.indexOf("Be brief."));
    await runCliProcess(["-p", "hi", "--no-session", "--no-context-files"], { env, cwd });
    expect(systemPromptSent()).not.toMatch(/USER RULE|REPO RULE|APP RULE/);

    const missing = await runCliProcess(["-p", "hi", "--system-prompt", "nope.md"], { env, cwd });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      "arbor: --system-prompt nope.md: no such file (give a file, or the text itself) (see arbor --help)\n",
    );
  });

  it("inspect lists the system prompt's sections, inert on the terminal, and in --json", async () => {
    const example = path.join(REPO_ROOT, "examples/todo-api-pagination.jsonl");
    const text = await runCliProcess(["inspect", example], { env, cwd });
    expect(text.stderr).toBe("");
    const section = text.stdout.slice(text.stdout.indexOf("System prompt"), text.stdout.indexOf("Context:"));
    expect(section).toMatch(
      /arbor's instructions\n.*context file .*home\/AGENTS\.md\n.*context file .*repo\/AGENTS\.md\n.*context file .*app\/CLAUDE\.md\n.*environment/,
    );
    expect(text.stdout).not.toContain("\u001b");
    const json = JSON.parse((await runCliProcess(["inspect", example, "--json"], { env, cwd })).stdout);
    expect(json.systemPrompt.cwd).toBe(cwd); // the example's own folder does not exist here
    expect(json.systemPrompt.sections.map((s: { kind: string }) => s.kind)).toEqual([
      "base",
      "context-file",
      "context-file",
      "context-file",
      "environment",
    ]);
    const none = JSON.parse(
      (await runCliProcess(["inspect", example, "--json", "--no-context-files"], { env, cwd })).stdout,
    );
    expect(none.systemPrompt.sections).toHaveLength(2);
  });
});
