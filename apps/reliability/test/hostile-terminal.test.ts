import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  errorReply,
  startWireServer,
  type TestLlmServer,
  textReply,
  toolCallReply,
} from "@arbor/providers/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHostileTally } from "../src/hostile-figures";
import { type BuiltCliRun, hasStackTrace, minimalEnv, runBuiltCli } from "../src/run-built-cli";

/**
 * Issue 11 §5: strings from a session file, a model, a tool or a provider error carry terminal
 * escape sequences (an OSC 52 clipboard write, a window title, a screen clear and reset, the
 * alternate screen, concealed text, an 8-bit CSI, a bidi override). The built CLI must print them
 * inert in `tree`, text `inspect`, print mode and the interactive mode, and escaped in JSON output.
 */
const tally = createHostileTally("terminal", "escape sequences in terminal output");

const ESC = "\u001b";
const PAYLOADS = [
  `${ESC}]52;c;cm0gLXJmIH4=\u0007`,
  `${ESC}]0;PWNED-TITLE${ESC}\\`,
  `${ESC}[2J${ESC}[H`,
  `${ESC}c`,
  `${ESC}[?1049h`,
  `${ESC}[8m`,
  "\u009b2J",
  "\u202e",
  "\r",
];
/** `before<all payloads>after`: the visible text left once the sequences are gone is `beforeafter`. */
const HOSTILE = `before${PAYLOADS.join("")}after`;
/** Raw control characters a terminal acts on (outside a TTY nothing should style, so ESC too). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let server: TestLlmServer;
let dir: string;
let project: string;
let sessionFile: string;
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
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "arbor-hostile-terminal-")));
  project = path.join(dir, "project");
  fs.mkdirSync(project);
  sessionFile = path.join(dir, "hostile.jsonl");
  fs.writeFileSync(sessionFile, hostileSession());
  env = minimalEnv({
    HOME: dir,
    ARBOR_HOME: path.join(dir, "home"),
    ANTHROPIC_API_KEY: "test-key",
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
  });
  return () => fs.rmSync(dir, { recursive: true, force: true });
});

/** A session whose every string field carries the payloads. */
function hostileSession(): string {
  const at = "2026-01-01T00:00:00.000Z";
  const usage = {
    input: 1,
    output: 1,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 2,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  const entries = [
    { type: "session", version: 3, id: "0190c0de-0000-7000-8000-000000000001", timestamp: at, cwd: project },
    {
      type: "message",
      id: "u1",
      parentId: null,
      timestamp: at,
      message: { role: "user", content: HOSTILE, timestamp: 0 },
    },
    {
      type: "message",
      id: "a1",
      parentId: "u1",
      timestamp: at,
      message: {
        role: "assistant",
        content: [
          { type: "text", text: HOSTILE },
          { type: "toolCall", id: "c1", name: `bash${PAYLOADS[1]}`, arguments: { command: HOSTILE } },
        ],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-sonnet-4-6",
        usage,
        stopReason: "toolUse",
        timestamp: 0,
      },
    },
    {
      type: "message",
      id: "t1",
      parentId: "a1",
      timestamp: at,
      message: {
        role: "toolResult",
        toolCallId: "c1",
        toolName: "bash",
        content: [{ type: "text", text: HOSTILE }],
        isError: false,
        timestamp: 0,
      },
    },
    { type: "label", id: "l1", parentId: "t1", timestamp: at, targetId: "t1", label: HOSTILE },
    { type: "session_info", id: "n1", parentId: "l1", timestamp: at, name: HOSTILE },
    { type: "model_change", id: "m1", parentId: "n1", timestamp: at, provider: HOSTILE, modelId: HOSTILE },
    {
      type: "custom_message",
      id: "x1",
      parentId: "m1",
      timestamp: at,
      customType: HOSTILE,
      content: HOSTILE,
      display: true,
    },
  ];
  return `${entries.map((entry) => JSON.stringify(entry)).join("\n")}\n`;
}

/** Counts the probe and returns the raw controls found in its output (stdout and stderr). */
function probe(run: BuiltCliRun): string[] {
  const output = run.stdout + run.stderr;
  const found = [...output.matchAll(new RegExp(RAW_CONTROL, "g"))].map(
    (match) => `U+${(match[0].codePointAt(0) as number).toString(16).padStart(4, "0")}`,
  );
  tally.count({ stackTraceCrashes: hasStackTrace(output) ? 1 : 0 });
  return found;
}

describe("hostile input: terminal output is inert", () => {
  it("tree shows a hostile session file without a single escape sequence", async () => {
    const run = await runBuiltCli(["tree", sessionFile], { env, cwd: project });
    expect(probe(run)).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"beforeafter"');
    expect(run.stdout).toContain("[beforeafter]");
  });

  it("inspect (text) shows it inert, inspect --json escapes it and keeps the exact strings", async () => {
    const text = await runBuiltCli(["inspect", sessionFile], { env, cwd: project });
    expect(probe(text)).toEqual([]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("Name      beforeafter");
    const json = await runBuiltCli(["inspect", sessionFile, "--json", "--full"], { env, cwd: project });
    expect(probe(json)).toEqual([]);
    expect(json.stdout).toContain("\\u001b]52;c;");
    expect(json.stdout).toContain("\\u009b2J");
    expect(json.stdout).toContain("\\u202e");
    expect(JSON.stringify(JSON.parse(json.stdout))).toContain(JSON.stringify(HOSTILE).slice(1, -1));
  });

  it("print mode prints a hostile answer, tool output and provider error inert; --json escapes them", async () => {
    server.enqueue(textReply(HOSTILE));
    const plain = await runBuiltCli(["-p", "hi", "--no-session"], { env, cwd: project });
    expect(probe(plain)).toEqual([]);
    expect(plain.stdout).toBe("beforeafter\n");

    server.reset();
    server.enqueue(
      toolCallReply("bash", { command: "printf '\\033]52;c;eA==\\a\\033[2J\\033]0;T\\033\\\\done'" }),
      textReply(HOSTILE),
    );
    const json = await runBuiltCli(["-p", "hi", "--no-session", "--json"], { env, cwd: project });
    expect(probe(json)).toEqual([]);
    const events = json.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const tool = events.find((event) => event.type === "tool_execution_end");
    expect(tool.result.content[0].text).toBe(`${ESC}]52;c;eA==\u0007${ESC}[2J${ESC}]0;T${ESC}\\done`);
    const end = events.findLast((event) => event.type === "message_end");
    expect(end.message.content[0].text).toBe(HOSTILE);

    server.reset();
    server.enqueue(
      errorReply(400, { type: "error", error: { type: "invalid_request_error", message: HOSTILE } }),
    );
    const failed = await runBuiltCli(["-p", "hi", "--no-session"], { env, cwd: project });
    expect(probe(failed)).toEqual([]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("beforeafter");
  });

  it("the interactive mode shows a hostile session, model answer and tool output inert", async () => {
    const copy = path.join(dir, "resumed.jsonl");
    fs.copyFileSync(sessionFile, copy);
    server.enqueue(
      toolCallReply("bash", { command: "printf 'out\\033]52;c;eA==\\a\\033[2Jput'" }),
      textReply(HOSTILE),
    );
    // The file's model_change names a hostile provider: it is refused, inert, until a model is named.
    const refused = await runBuiltCli(["--session", copy], { env, cwd: project });
    expect(probe(refused)).toEqual([]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^arbor: .*beforeafter/);
    // Piped input: one command per run (lines typed while a command runs would be refused as busy).
    const outputs: string[] = [];
    for (const input of ["/session\n", "/tree\n\n", "/fork\n\n", "go\n"]) {
      const run = await runBuiltCli(["--session", copy, "--model", "claude-sonnet-4-6"], {
        env,
        cwd: project,
        input,
      });
      expect(probe(run)).toEqual([]);
      expect(run.code).toBe(0);
      outputs.push(run.stdout);
    }
    const [session, tree, fork, prompt] = outputs as [string, string, string, string];
    expect(session).toMatch(/Name +beforeafter/);
    expect(tree).toContain("[beforeafter]");
    expect(fork).toContain("1. u1  beforeafter");
    expect(prompt).toContain("✓ output");
    expect(prompt).toContain("✓ output\nbeforeafter\n");
  });
});
