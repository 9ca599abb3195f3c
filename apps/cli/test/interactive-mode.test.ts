import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startWireServer, type TestLlmServer, textReply, toolCallReply } from "@arbor/providers/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertCliBuilt, REPO_ROOT } from "./helpers/cli-paths";
import { PtySession } from "./helpers/pty-session";
import { runCliProcess } from "./helpers/run-cli-process";
import { listSessionFiles, readJsonlLines } from "./helpers/session-files";

let server: TestLlmServer;
let dir: string;
let project: string;
let home: string;
let pty: PtySession | undefined;

beforeAll(async () => {
  assertCliBuilt();
  server = await startWireServer({ apiKey: "test-key" });
});
afterAll(() => server.close());
beforeEach(() => {
  server.reset();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-tty-"));
  project = path.join(dir, "project");
  home = path.join(dir, "home");
  fs.mkdirSync(path.join(project, ".arbor"), { recursive: true });
  fs.writeFileSync(path.join(project, "a.txt"), "hello world\n");
});
afterEach(() => {
  pty?.kill();
  pty = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The key help the arrow-key picker draws under its rows (its last line, so the picker is ready). */
const PICKER_HINT = "Enter select · Esc cancel";

/** The environment of an `arbor` run in these tests: isolated home, the wire server as Anthropic. */
function agentEnv(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: dir,
    ARBOR_HOME: home,
    ANTHROPIC_API_KEY: "test-key",
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
  };
}

/** Sends "one" and "two" (answered "First." and "Second."); resolves with the screen position after. */
async function talkTwice(tty: PtySession): Promise<number> {
  let at = await tty.waitFor("› ");
  server.enqueue(textReply("First."), textReply("Second."));
  tty.sendLine("one");
  at = await tty.waitFor("First.", { from: at });
  tty.sendLine("two");
  return tty.waitFor("Second.", { from: at });
}

function start(args: string[] = []): PtySession {
  pty = new PtySession(args, {
    cwd: project,
    env: { ...agentEnv(), LOCAL_API_KEY: "test-key" },
  });
  return pty;
}

describe("interactive mode in a terminal", () => {
  it("streams replies and tool calls, shows the status line, and runs the session commands", async () => {
    fs.writeFileSync(
      path.join(project, ".arbor/settings.json"),
      JSON.stringify({ compaction: { keepRecentTokens: 10 } }),
    );
    const tty = start(["--trust-project"]);
    let at = await tty.waitFor("› ");
    expect(tty.screen).toMatch(/anthropic\/claude-sonnet-4-6 · context 0\/1\.0M \(0%\) · \$0\.0000/);

    server.enqueue(
      toolCallReply("read", { path: "a.txt" }, { text: "Reading it." }),
      textReply("It says hello world."),
    );
    tty.sendLine("what does a.txt say?");
    at = await tty.waitFor("It says hello world.", { from: at });
    expect(tty.screen).toContain("● read(a.txt)\n  ✓ hello world\n");
    at = await tty.waitFor(/context \d+\/1\.0M \(0%\)/, { from: at });

    server.enqueue(textReply("Two words."));
    tty.sendLine("count the words");
    at = await tty.waitFor("Two words.", { from: at });

    tty.sendLine("/name word counting");
    at = await tty.waitFor('Session named "word counting".', { from: at });
    tty.sendLine("/label counted");
    at = await tty.waitFor(/Labelled [0-9a-f]{8} "counted"\./, { from: at });

    tty.sendLine("/session");
    at = await tty.waitFor(/Context +\d+ \/ 1,000,000 tokens/, { from: at });
    expect(tty.screen.slice(0, at)).toMatch(/Messages +2 user, 3 assistant, 1 tool calls/);

    // /tree: back to the second question (found by typing part of its id into the picker's filter),
    // summarizing the branch we leave; its text comes back.
    tty.sendLine("/tree");
    at = await tty.waitFor(PICKER_HINT, { from: at });
    const second = /([0-9a-f]{8}) user +count the words/.exec(tty.screen.slice(0, at))?.[1] as string;
    tty.type(second.slice(0, 5));
    at = await tty.waitFor(`filter: ${second.slice(0, 5)}  1/1`, { from: at });
    at = await tty.waitFor(new RegExp(`▸ ${second} user +count the words`), { from: at });
    tty.type("\r");
    at = await tty.waitFor("Summarize the branch you leave?", { from: at });
    server.enqueue(textReply("## Goal\nCount the words of a.txt."));
    tty.sendLine("y");
    at = await tty.waitFor(/Moved to [0-9a-f]{8}; summarized the branch you left in ([0-9a-f]{8})\./, {
      from: at,
    });
    at = await tty.waitFor("› count the words", { from: at });
    server.enqueue(textReply("Still two words."));
    tty.type(" again\r");
    at = await tty.waitFor("Still two words.", { from: at });

    // /compact with a tiny keepRecentTokens: a real compaction through the model.
    server.enqueue(
      textReply("## Goal\nRead a.txt (compacted)."),
      textReply("## Original Request\ncount again"),
    );
    tty.sendLine("/compact keep file names");
    at = await tty.waitFor(/◆ compacted \(manual, model summary\): ~\d+ → ~\d+ tokens/, { from: at });
    at = await tty.waitFor("(compacted)", { from: at });
    // Spinners were drawn (then erased) while the summaries were written.
    expect(tty.rawOutput).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Summarizing the branch you leave…/);
    expect(tty.rawOutput).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Compacting the context \(manual\)…/);

    tty.type("\u0004");
    expect(await tty.exited).toBe(0);

    const [file] = listSessionFiles(home);
    const entries = readJsonlLines(file as string);
    const summary = entries.filter((entry) => entry.type === "branch_summary").at(-1);
    expect(summary).toMatchObject({ summary: expect.stringContaining("Count the words of a.txt.") });
    expect(entries.filter((entry) => entry.parentId === summary?.parentId).length).toBeGreaterThanOrEqual(1);
    expect(entries.find((entry) => entry.type === "label")).toMatchObject({ label: "counted" });
    expect(entries.find((entry) => entry.type === "session_info")).toMatchObject({ name: "word counting" });
    const resent = entries.filter((entry) => entry.message?.role === "user").at(-1);
    expect(JSON.stringify(resent?.message.content)).toContain("count the words again");
    expect(entries.at(-1)).toMatchObject({ type: "compaction" });
    const summaryRequests = server.requests.filter((request) =>
      JSON.stringify(request.body).includes("keep file names"),
    );
    expect(summaryRequests.length).toBeGreaterThanOrEqual(1);
  });

  it("picks a /tree entry with the arrow keys and summarizes the branch it leaves there", async () => {
    const tty = start();
    let at = await talkTwice(tty);

    tty.sendLine("/tree");
    at = await tty.waitFor(PICKER_HINT, { from: at });
    // It starts on the leaf (the last reply); two rows up is the first reply.
    expect(tty.screen.slice(0, at)).toMatch(/▸ [0-9a-f]{8} assistant +Second\. +← leaf/);
    tty.type("\u001b[A");
    at = await tty.waitFor(/▸ [0-9a-f]{8} user +two/, { from: at });
    tty.type("\u001b[A");
    at = await tty.waitFor(/▸ [0-9a-f]{8} assistant +First\./, { from: at });
    tty.type("\r");
    at = await tty.waitFor("Summarize the branch you leave?", { from: at });
    server.enqueue(textReply("## Goal\nSay two."));
    tty.sendLine("y");
    at = await tty.waitFor(/Moved to [0-9a-f]{8}; summarized the branch you left in [0-9a-f]{8}\./, {
      from: at,
    });
    const moved = /Moved to ([0-9a-f]{8}); summarized the branch you left in ([0-9a-f]{8})\./.exec(
      tty.screen,
    );
    server.enqueue(textReply("Third."));
    tty.sendLine("three");
    at = await tty.waitFor("Third.", { from: at });
    tty.type("\u0004");
    expect(await tty.exited).toBe(0);

    const entries = readJsonlLines(listSessionFiles(home)[0] as string);
    const byText = (role: string, text: string) =>
      entries.find(
        (entry) => entry.message?.role === role && JSON.stringify(entry.message.content).includes(text),
      );
    const first = byText("assistant", "First.");
    const second = byText("assistant", "Second.");
    const summary = entries.filter((entry) => entry.type === "branch_summary").at(-1);
    expect(summary).toMatchObject({ parentId: first?.id, fromId: second?.id });
    expect(summary?.summary).toContain("Say two.");
    expect(moved?.[1]).toBe(summary?.id);
    expect(moved?.[2]).toBe(summary?.id);
    expect(byText("user", "three")).toMatchObject({ parentId: summary?.id });
    expect(entries.filter((entry) => entry.type === "branch_summary")).toHaveLength(1);
  });

  it("leaves the session as it was when the /tree picker is cancelled (Esc, Ctrl-C) or the leaf is picked", async () => {
    const tty = start();
    let at = await talkTwice(tty);
    // The answer is on screen before the run ends; the prompt comes back once it is saved.
    at = await tty.waitFor("› ", { from: at });
    const file = listSessionFiles(home)[0] as string;
    const before = fs.readFileSync(file, "utf8");

    tty.sendLine("/tree");
    at = await tty.waitFor(PICKER_HINT, { from: at });
    tty.type("\u001b[A");
    at = await tty.waitFor(/▸ [0-9a-f]{8} user +two/, { from: at });
    tty.type("\u001b");
    at = await tty.waitFor("Stayed where you were.", { from: at });
    at = await tty.waitFor("› ", { from: at });
    // Ctrl-C cancels the picker too, without quitting the app.
    tty.sendLine("/tree");
    at = await tty.waitFor(PICKER_HINT, { from: at });
    tty.type("\u0003");
    at = await tty.waitFor("Stayed where you were.", { from: at });
    at = await tty.waitFor("› ", { from: at });
    // Enter on the leaf (where the picker starts) stays too.
    tty.sendLine("/tree");
    at = await tty.waitFor(PICKER_HINT, { from: at });
    tty.type("\r");
    at = await tty.waitFor("Already there.", { from: at });
    at = await tty.waitFor("› ", { from: at });
    expect(fs.readFileSync(file, "utf8")).toBe(before);
    expect(tty.screen).not.toContain("Summarize the branch");

    server.enqueue(textReply("Third."));
    tty.sendLine("three");
    at = await tty.waitFor("Third.", { from: at });
    tty.type("\u0004");
    expect(await tty.exited).toBe(0);
    const entries = readJsonlLines(file);
    const second = entries.find((entry) => JSON.stringify(entry.message?.content ?? "").includes("Second."));
    const third = entries.find(
      (entry) => entry.message?.role === "user" && JSON.stringify(entry.message.content).includes("three"),
    );
    expect(third).toMatchObject({ parentId: second?.id });
    expect(entries.some((entry) => entry.type === "branch_summary")).toBe(false);
  });

  it("aborts a run with Ctrl-C and quits with Ctrl-C twice", async () => {
    const tty = start(["--no-session"]);
    let at = await tty.waitFor("› ");
    server.enqueue(
      textReply("This answer streams very slowly and never gets to the end.", {
        eventDelayMs: 150,
        chunkSize: 2,
      }),
    );
    tty.sendLine("write slowly");
    at = await tty.waitFor("This", { from: at });
    tty.type("\u0003");
    at = await tty.waitFor("(aborted)", { from: at });
    at = await tty.waitFor("› ", { from: at });
    expect(tty.screen).not.toContain("gets to the end");
    tty.type("\u0003");
    await tty.waitFor("(Ctrl-C again to quit)", { from: at });
    tty.type("\u0003");
    expect(await tty.exited).toBe(0);
    expect(listSessionFiles(home)).toEqual([]);
  });

  it("forks, clones, starts new sessions, resumes, and switches models", async () => {
    // An extension that logs the session lifecycle events it gets (plain object: no imports needed).
    const log = path.join(dir, "lifecycle.log");
    fs.writeFileSync(
      path.join(project, ".arbor/lifecycle.ts"),
      `import { appendFileSync } from "node:fs";
export default {
  apiVersion: 1,
  name: "lifecycle-log",
  setup(api) {
    const write = (event) => appendFileSync(${JSON.stringify(log)},
      \`\${event.type} \${event.reason}\${event.previousSessionFile ? " from" : ""}\${event.targetSessionFile ? " to" : ""}\\n\`);
    api.on("session_start", write);
    api.on("session_shutdown", write);
  },
};
`,
    );
    fs.writeFileSync(
      path.join(project, ".arbor/settings.json"),
      JSON.stringify({ extensions: ["lifecycle.ts"] }),
    );
    fs.writeFileSync(
      path.join(project, ".arbor/models.json"),
      JSON.stringify({
        models: [
          {
            id: "local-8k",
            provider: "local",
            api: "openai-chat",
            baseUrl: server.openaiBaseUrl,
            contextWindow: 8192,
            maxTokens: 1024,
          },
        ],
      }),
    );
    const tty = start(["--trust-project"]);
    let at = await talkTwice(tty);

    tty.sendLine("/fork");
    at = await tty.waitFor("Fork before which message?", { from: at });
    expect(tty.screen.slice(0, at)).toMatch(/ {2}1\. [0-9a-f]{8} {2}one\n {2}2\. [0-9a-f]{8} {2}two/);
    tty.sendLine("2");
    at = await tty.waitFor(/Forked into .+\.jsonl \(from .+\.jsonl\)\./, { from: at });
    at = await tty.waitFor("› two", { from: at });
    tty.type("\u0015"); // Ctrl-U clears the prefilled line

    tty.sendLine("/clone");
    at = await tty.waitFor(/Cloned into .+\.jsonl\./, { from: at });

    tty.sendLine("/model local-8k");
    at = await tty.waitFor("Now using local/local-8k.", { from: at });
    at = await tty.waitFor("local/local-8k · context", { from: at });
    server.enqueue(textReply("From the local model."));
    tty.sendLine("three");
    at = await tty.waitFor("From the local model.", { from: at });
    expect(server.requests.at(-1)?.route).toBe("openai-chat");

    tty.sendLine("/new");
    at = await tty.waitFor(/New session [0-9a-f-]{36}\./, { from: at });
    tty.sendLine("/resume");
    const listed = at;
    at = await tty.waitFor(PICKER_HINT, { from: at });
    // The picker lists the three saved sessions, starting on the newest (the clone).
    expect(tty.screen.slice(listed, at)).toMatch(
      /Resume which session\? +1\/3\n▸ \d{4}-\d\d-\d\d \d\d:\d\d {2}one/,
    );
    tty.type("\r");
    at = await tty.waitFor(/Resumed .+\.jsonl \(\d+ entries\)\./, { from: at });

    tty.type("\u0004");
    expect(await tty.exited).toBe(0);
    // The first session, the fork and the clone were written; the empty /new session was not.
    const files = listSessionFiles(home);
    expect(files).toHaveLength(3);
    const headers = files.map((file) => readJsonlLines(file)[0]);
    expect(headers.filter((header) => header?.parentSession !== undefined)).toHaveLength(2);
    // Each switch ends the old session and starts the new one, naming the files, as pi reports them.
    expect(fs.readFileSync(log, "utf8").trimEnd().split("\n")).toEqual([
      "session_start startup",
      "session_start fork from", // /fork: the runtime starts the forked session…
      "session_shutdown fork to", // …and the CLI ends the one it leaves
      "session_start fork from", // /clone
      "session_shutdown fork to",
      "session_shutdown new to", // /new and /resume: the old session ends first, as in pi
      "session_start new from",
      "session_shutdown resume to",
      "session_start resume from",
      "session_shutdown quit",
    ]);
  });

  it("resumes a session picked at start with --resume", async () => {
    server.enqueue(textReply("Remembered."));
    let tty = start();
    let at = await tty.waitFor("› ");
    tty.sendLine("remember the number 42");
    at = await tty.waitFor("Remembered.", { from: at });
    tty.type("\u0004");
    expect(await tty.exited).toBe(0);

    // Esc in the start-up picker exits cleanly (the keyboard is released, nothing keeps the process).
    tty = start(["--resume"]);
    await tty.waitFor(PICKER_HINT);
    tty.type("\u001b");
    expect(await tty.exited).toBe(0);

    tty = start(["--resume"]);
    at = await tty.waitFor(PICKER_HINT);
    expect(tty.screen).toMatch(
      /Resume which session\? +1\/1\n▸ \d{4}-\d\d-\d\d \d\d:\d\d {2}remember the number 42/,
    );
    tty.type("\r");
    at = await tty.waitFor("› ", { from: at });
    server.enqueue(textReply("It was 42."));
    tty.sendLine("what was the number?");
    at = await tty.waitFor("It was 42.", { from: at });
    tty.type("\u0004");
    expect(await tty.exited).toBe(0);
    expect(listSessionFiles(home)).toHaveLength(1);
    expect(JSON.stringify(server.requests.at(-1)?.body)).toContain("remember the number 42");
  });

  it("falls back to the printed tree and a typed id for /tree when input is piped", async () => {
    fs.writeFileSync(
      path.join(project, ".arbor/settings.json"),
      JSON.stringify({ branchSummary: { skipPrompt: true } }),
    );
    const file = path.join(project, "session.jsonl");
    fs.copyFileSync(path.join(REPO_ROOT, "examples/todo-api-pagination.jsonl"), file);
    const before = fs.readFileSync(file, "utf8");
    const run = await runCliProcess(["--session", file, "--trust-project"], {
      cwd: project,
      // 504e6703 is the first assistant entry of the example session; a prefix is enough.
      input: "/tree\n504e67\n",
      env: agentEnv(),
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/999198d2 assistant +Fixed and committed.*← leaf\n/);
    expect(run.stdout).toContain("Move to entry (id or prefix, Enter to stay): Moved to 504e6703.\n");
    expect(run.stdout).not.toContain(PICKER_HINT);
    expect(run.stdout).not.toContain("\u001b[");
    // Moving the leaf writes nothing.
    expect(fs.readFileSync(file, "utf8")).toBe(before);
  });

  it("keeps piped answers with their command: /tree, an id and y answer /tree's questions", async () => {
    const file = path.join(project, "session.jsonl");
    fs.copyFileSync(path.join(REPO_ROOT, "examples/todo-api-pagination.jsonl"), file);
    server.enqueue(textReply("Summary of the branch left."), textReply("After the move."));
    const run = await runCliProcess(["--session", file, "--model", "anthropic/claude-haiku-4-5"], {
      cwd: project,
      // Sent at once: the id answers "Move to entry", y the summary question, the last line is a prompt.
      input: "/tree\n504e67\ny\nwhat now?\n",
      env: agentEnv(),
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("queued");
    const entries = readJsonlLines(file);
    const summary = entries.filter((entry) => entry.type === "branch_summary").at(-1);
    expect(summary).toMatchObject({ summary: expect.stringContaining("Summary of the branch left.") });
    const prompt = entries.find(
      (entry) => entry.type === "message" && JSON.stringify(entry.message.content).includes("what now?"),
    );
    expect(prompt?.parentId).toBe(summary?.id);
    expect(run.stdout).toContain("After the move.");
  });

  it("reads prompts from a pipe and finishes the run before exiting", async () => {
    server.enqueue(toolCallReply("read", { path: "a.txt" }), textReply("Piped answer."));
    const run = await runCliProcess(["--no-session"], {
      cwd: project,
      input: "what does a.txt say?\n",
      env: agentEnv(),
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("● read(a.txt)\n  ✓ hello world\nPiped answer.\n");
    expect(run.stdout).not.toContain("\u001b[");
  });
});
