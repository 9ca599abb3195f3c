import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startWireServer, type TestLlmServer, textReply, toolCallReply } from "@arbor/providers/testing";
import { openSessionStore } from "@arbor/session-store";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertCliBuilt } from "./helpers/cli-paths";
import { isolatedEnv, runCliProcess } from "./helpers/run-cli-process";
import { listSessionFiles, readJsonlLines } from "./helpers/session-files";

let server: TestLlmServer;
let dir: string;
let project: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  assertCliBuilt();
  server = await startWireServer({ apiKey: "test-key" });
});
afterAll(() => server.close());

beforeEach(() => {
  server.reset();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-print-"));
  project = path.join(dir, "project");
  fs.mkdirSync(project);
  env = isolatedEnv({
    HOME: dir,
    ARBOR_HOME: path.join(dir, "home"),
    ANTHROPIC_API_KEY: "test-key",
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
  });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("print mode", () => {
  it("runs tool calls to completion, prints the final answer and saves the session", async () => {
    fs.writeFileSync(path.join(project, "notes.txt"), "alpha\nbeta\n");
    server.enqueue(
      toolCallReply("read", { path: "notes.txt" }, { text: "Let me look." }),
      toolCallReply("write", { path: "out/summary.txt", content: "2 lines\n" }),
      toolCallReply("edit", { path: "notes.txt", oldText: "beta", newText: "gamma" }),
      toolCallReply("bash", { command: "cat notes.txt out/summary.txt" }),
      textReply("The file has two lines; I renamed beta to gamma."),
    );
    const run = await runCliProcess(["-p", "Summarize notes.txt"], { env, cwd: project });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("The file has two lines; I renamed beta to gamma.\n");
    expect(fs.readFileSync(path.join(project, "notes.txt"), "utf8")).toBe("alpha\ngamma\n");
    expect(fs.readFileSync(path.join(project, "out/summary.txt"), "utf8")).toBe("2 lines\n");

    // The model saw each tool result; the request went through the Anthropic SDK with the key.
    expect(server.requests).toHaveLength(5);
    const last = server.requests[4]?.body as {
      messages: Array<{ role: string; content: unknown }>;
      tools: unknown[];
    };
    expect(JSON.stringify(last.messages)).toContain("alpha\\ngamma\\n2 lines");
    expect((last.tools as Array<{ name: string }>).map((tool) => tool.name).sort()).toEqual([
      "bash",
      "edit",
      "read",
      "write",
    ]);

    const [file] = listSessionFiles(path.join(dir, "home"));
    expect(path.dirname(file as string)).toBe(
      path.join(dir, "home", "sessions", `--${project.slice(1).replace(/\//g, "-")}--`),
    );
    const entries = readJsonlLines(file as string);
    expect(entries[0]).toMatchObject({ type: "session", version: 3, cwd: project });
    const roles = entries
      .filter((entry) => entry.type === "message")
      .map((entry) => (entry.message as { role: string }).role);
    expect(roles.filter((role) => role === "toolResult")).toHaveLength(4);
    // The edit's result carries the change as a unified diff, stored with the tool result.
    const editResult = entries.find(
      (entry) =>
        entry.type === "message" && entry.message.role === "toolResult" && entry.message.toolName === "edit",
    );
    expect(editResult?.message.details.diff).toBe(
      "--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1,2 @@\n alpha\n-beta\n+gamma",
    );
    expect(roles.at(-1)).toBe("assistant");

    // The tools' calls feed file tracking: compacting the session lists the files they touched.
    const compact = await runCliProcess(
      ["compact", file as string, "--offline", "--keep-recent-tokens", "0"],
      {
        env,
        cwd: project,
      },
    );
    expect(compact.code).toBe(0);
    const compaction = readJsonlLines(file as string).at(-1);
    expect(compaction).toMatchObject({
      type: "compaction",
      details: { readFiles: [], modifiedFiles: ["notes.txt", "out/summary.txt"] },
    });
  });

  it("streams the events as JSON lines with --json", async () => {
    server.enqueue(toolCallReply("bash", { command: "echo hi" }), textReply("done"));
    const run = await runCliProcess(["-p", "say hi", "--json", "--no-session"], { env, cwd: project });
    expect(run.code).toBe(0);
    const events = run.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    const types = events.map((event) => event.type);
    expect(types[0]).toBe("agent_start");
    expect(types).toContain("message_update");
    const toolEnd = events.find((event) => event.type === "tool_execution_end");
    expect(toolEnd).toMatchObject({
      toolName: "bash",
      isError: false,
      result: { content: [{ text: "hi" }] },
    });
    expect(types.slice(-2)).toEqual(["agent_end", "agent_settled"]);
    const turnEnd = events.find((event) => event.type === "turn_end");
    expect(turnEnd).toMatchObject({ turnIndex: 0, outcome: "completed", entries: [], continue: false });
    expect(turnEnd.toolResultEntryIds).toHaveLength(1);
    expect(turnEnd).not.toHaveProperty("context");
    expect(listSessionFiles(path.join(dir, "home"))).toEqual([]);
  });

  it("keeps --json output linear in the answer's length: updates carry the delta, not the partial message", async () => {
    const answer = "word ".repeat(400).trim();
    server.enqueue(textReply(answer));
    const run = await runCliProcess(["-p", "talk", "--json", "--no-session"], { env, cwd: project });
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    const updates = lines.filter((line) => line.includes('"type":"message_update"'));
    expect(updates.length).toBeGreaterThan(100);
    // Each delta line is small, whatever was streamed before it (text-end and done carry the text once).
    const deltaLines = updates.filter((line) => JSON.parse(line).assistantMessageEvent.type === "text-delta");
    expect(deltaLines.length).toBeGreaterThan(100);
    for (const line of deltaLines) expect(line.length).toBeLessThan(400);
    const deltas = deltaLines.map((line) => JSON.parse(line).assistantMessageEvent.delta as string);
    expect(deltas.join("")).toBe(answer);
    const end = lines
      .map((line) => JSON.parse(line))
      .find((event) => event.type === "message_end" && event.message.role === "assistant");
    expect(end.message.content).toEqual([{ type: "text", text: answer }]);
    expect(run.stdout.length).toBeLessThan(answer.length * 30);
  });

  it("reports a tool failure to the model, not to the user", async () => {
    server.enqueue(toolCallReply("read", { path: "missing.txt" }), textReply("It does not exist."));
    const run = await runCliProcess(["-p", "read missing.txt", "--no-session"], { env, cwd: project });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("It does not exist.\n");
    expect(JSON.stringify(server.requests[1]?.body)).toContain("File not found: missing.txt");
  });

  it("continues the most recent session with --continue", async () => {
    server.enqueue(textReply("first answer"));
    expect((await runCliProcess(["-p", "first"], { env, cwd: project })).code).toBe(0);
    server.enqueue(textReply("second answer"));
    const run = await runCliProcess(["-p", "second", "--continue"], { env, cwd: project });
    expect(run.stdout).toBe("second answer\n");
    expect(listSessionFiles(path.join(dir, "home"))).toHaveLength(1);
    expect(JSON.stringify(server.requests[1]?.body)).toContain("first answer");
  });

  it("fails with one line when the key is missing, naming the variable, and leaves no folder behind", async () => {
    const run = await runCliProcess(["-p", "hi"], {
      env: { ...env, ANTHROPIC_API_KEY: undefined },
      cwd: project,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      "arbor: ANTHROPIC_API_KEY is not set: export it to use anthropic/claude-sonnet-4-6 (or pick another model with --model)\n",
    );
    expect(server.requests).toHaveLength(0);
    expect(fs.existsSync(path.join(dir, "home", "sessions"))).toBe(false);
    // A sessions folder that holds another session stays.
    const other = path.join(dir, "home", "sessions", "--other--");
    fs.mkdirSync(other, { recursive: true });
    await runCliProcess(["-p", "hi"], { env: { ...env, ANTHROPIC_API_KEY: undefined }, cwd: project });
    expect(fs.readdirSync(path.join(dir, "home", "sessions"))).toEqual(["--other--"]);
  });

  it("fails with one line for an unknown model", async () => {
    const run = await runCliProcess(["-p", "hi", "--model", "claude-nonexistent"], { env, cwd: project });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^arbor: unknown model "claude-nonexistent" \(known: .*claude-sonnet-4-6/);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
  });

  it("takes --model provider/id", async () => {
    server.enqueue(textReply("Haiku here."));
    const run = await runCliProcess(["-p", "hi", "--model", "anthropic/claude-haiku-4-5", "--no-session"], {
      env,
      cwd: project,
    });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("Haiku here.\n");
    expect(server.requests[0]?.body).toMatchObject({ model: "claude-haiku-4-5" });
  });

  it("fails with one line when the provider rejects the key", async () => {
    const run = await runCliProcess(["-p", "hi", "--no-session"], {
      env: { ...env, ANTHROPIC_API_KEY: "wrong-key" },
      cwd: project,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^arbor: anthropic\/claude-sonnet-4-6 failed: .+\n$/);
    expect(run.stderr).not.toContain("wrong-key");
  });

  it("talks to OpenAI's Responses API with --provider, --model and --base-url", async () => {
    server.enqueue(textReply("Hello from the Responses API."));
    const run = await runCliProcess(
      [
        "-p",
        "hi",
        "--provider",
        "openai",
        "--model",
        "gpt-4.1",
        "--base-url",
        server.openaiBaseUrl,
        "--no-session",
      ],
      { env: { ...env, ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: "test-key" }, cwd: project },
    );
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("Hello from the Responses API.\n");
    expect(server.requests[0]?.route).toBe("openai-responses");
  });

  it("refuses a session file another process is writing to", async () => {
    const file = path.join(project, "busy.jsonl");
    server.enqueue(textReply("first"));
    expect((await runCliProcess(["-p", "one", "--session", file], { env, cwd: project })).code).toBe(0);
    const holder = openSessionStore(file);
    try {
      const run = await runCliProcess(["-p", "two", "--session", file], { env, cwd: project });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^arbor: .*busy\.jsonl is locked by process \d+/);
      expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    } finally {
      holder.close();
    }
  });

  it("warns about a damaged line found while the session is read, leaves it out, and carries on", async () => {
    const file = path.join(project, "damaged.jsonl");
    server.enqueue(textReply("first answer"), textReply("second answer"));
    expect(
      (await runCliProcess(["-p", "first question", "--session", file], { env, cwd: project })).code,
    ).toBe(0);
    expect((await runCliProcess(["-p", "second", "--session", file], { env, cwd: project })).code).toBe(0);
    // Damage the first answer inside its text: the line still starts and ends like an entry, so only
    // reading the entry finds it.
    const lines = fs.readFileSync(file, "utf8").split("\n");
    const at = lines.findIndex((line) => line.includes("first answer"));
    lines[at] = (lines[at] as string).replace("first answer", "first\u0001answer");
    fs.writeFileSync(file, lines.join("\n"));
    const damaged = fs.readFileSync(file);

    server.enqueue(textReply("third answer"));
    const run = await runCliProcess(["-p", "third", "--session", file], { env, cwd: project });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("third answer\n");
    expect(run.stderr).toMatch(
      new RegExp(`^arbor: warning: .*damaged\\.jsonl:${at + 1}: .*left out of the session`),
    );
    // The model no longer sees the damaged answer nor what hung below it (its parent is gone), as pi.
    const sent = JSON.stringify(server.requests[2]?.body);
    expect(sent).not.toContain("first question");
    expect(sent).toContain("second answer");
    expect(sent).toContain("third");
    // The damaged line is still in the file, byte for byte, and the new turn was appended after it.
    const after = fs.readFileSync(file);
    expect(after.subarray(0, damaged.length).equals(damaged)).toBe(true);
    const afterLines = after.toString("utf8").trimEnd().split("\n");
    expect(afterLines).toHaveLength(lines.filter((line) => line !== "").length + 2);
    expect(JSON.parse(afterLines.at(-1) as string).message.content[0].text).toBe("third answer");
  });
});
