/**
 * pi-style extensions (`export default function (pi) { pi.on(…) }`), written for these tests, loaded
 * by the built CLI from user-level settings ($ARBOR_HOME/settings.json) against the wire-level server:
 * a custom compaction with its own summarizer, a turn_end masking policy, and an agent_before_settle
 * that appends a custom_message and continues.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startWireServer, type TestLlmServer, textReply, toolCallReply } from "@arbor/providers/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertCliBuilt } from "./helpers/cli-paths";
import { isolatedEnv, runCliProcess } from "./helpers/run-cli-process";
import { readJsonlLines } from "./helpers/session-files";

let server: TestLlmServer;
let dir: string;
let home: string;
let project: string;
let env: NodeJS.ProcessEnv;

const CUSTOM_COMPACTION = `export default function (pi) {
  pi.on("session_before_compact", (event) => {
    const { preparation } = event;
    const text = pi.compaction.serializeConversation(pi.compaction.convertToLlm(preparation.messagesToSummarize));
    return {
      compaction: {
        summary: "OWN SUMMARY of " + preparation.messagesToSummarize.length + " messages, " + text.length + " chars",
        firstKeptEntryId: preparation.firstKeptEntryId,
        tokensBefore: preparation.tokensBefore,
        details: { summarizer: "own" },
      },
    };
  });
}
`;

const MASK_TOOL_OUTPUTS = `export default function (pi) {
  pi.on("turn_end", (event) => {
    if (event.toolResultEntryIds.length === 0) return;
    const drafts = event.toolResultEntryIds.map((targetId) => ({
      type: "context_edit", targetId, replacement: { content: "[tool output masked]" },
    }));
    return { entries: [...event.entries, ...drafts] };
  });
}
`;

const SETTLE_NUDGE = `export default function (pi) {
  let nudged = false;
  pi.on("agent_before_settle", (event) => {
    if (nudged || event.outcome !== "completed") return;
    nudged = true;
    const note = { type: "custom_message", customType: "nudge", content: "SETTLE NUDGE: double-check", display: true };
    return { entries: [...event.entries, note], continue: true };
  });
}
`;

beforeAll(async () => {
  assertCliBuilt();
  server = await startWireServer({ apiKey: "test-key" });
});
afterAll(() => server.close());

beforeEach(() => {
  server.reset();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-pi-ext-"));
  home = path.join(dir, "home");
  project = path.join(dir, "project");
  fs.mkdirSync(path.join(home, "extensions"), { recursive: true });
  fs.mkdirSync(project);
  const files = {
    "own-compaction.mjs": CUSTOM_COMPACTION,
    "mask.mjs": MASK_TOOL_OUTPUTS,
    "nudge.mjs": SETTLE_NUDGE,
  };
  for (const [name, source] of Object.entries(files))
    fs.writeFileSync(path.join(home, "extensions", name), source);
  fs.writeFileSync(
    path.join(home, "settings.json"),
    JSON.stringify({
      extensions: Object.keys(files).map((name) => `extensions/${name}`),
      compaction: { reserveTokens: 10_000, keepRecentTokens: 2000 },
    }),
  );
  fs.writeFileSync(
    path.join(home, "models.json"),
    JSON.stringify({
      models: [
        {
          id: "claude-small",
          provider: "anthropic",
          api: "anthropic-messages",
          baseUrl: server.anthropicBaseUrl,
          contextWindow: 40_000,
          maxTokens: 1024,
        },
      ],
    }),
  );
  env = isolatedEnv({
    HOME: dir,
    ARBOR_HOME: home,
    ANTHROPIC_API_KEY: "test-key",
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
  });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("pi-style extensions through the built CLI", () => {
  it("compact with their own summarizer, mask tool outputs on turn_end, and continue from agent_before_settle", async () => {
    fs.writeFileSync(path.join(project, "big.txt"), `${"y".repeat(8000)}\n`);
    const model = ["--model", "anthropic/claude-small"];
    // First run: a long message (about 32k of the 40k window) and the settle nudge's extra request.
    server.enqueue(textReply("noted"), textReply("still noted"));
    const first = await runCliProcess(["-p", `remember: ${"p".repeat(65_000)}`, ...model], {
      env,
      cwd: project,
    });
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify(server.requests[1]?.body)).toContain("SETTLE NUDGE: double-check");
    server.reset();
    // Second run: a tool call reported near the window; the turn_end mask, then the threshold
    // compaction with the extension's own summary, then the answer, then the settle nudge.
    server.enqueue(
      toolCallReply("bash", { command: "cat big.txt" }, { usage: { input: 33_000, output: 50 } }),
      textReply("done reading"),
      textReply("double-checked"),
    );
    const run = await runCliProcess(
      ["-c", "-p", `look at big.txt ${"q".repeat(65_000)}`, ...model, "--json"],
      {
        env,
        cwd: project,
      },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);

    const events = run.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; [key: string]: unknown });

    // Three agent requests and no summary request: the extension wrote the summary itself.
    expect(server.requests).toHaveLength(3);
    const second = JSON.stringify(server.requests[1]?.body);
    expect(second).toContain("[tool output masked]");
    expect(second).not.toContain("y".repeat(200));
    expect(second).toContain("OWN SUMMARY of");
    expect(JSON.stringify(server.requests[2]?.body)).toContain("SETTLE NUDGE: double-check");

    const compact = events.find((event) => event.type === "session_compact");
    expect(compact).toMatchObject({ fromExtension: true, reason: "threshold" });
    expect(events.at(-1)).toEqual({ type: "agent_settled", aborted: false });

    const sessions = path.join(home, "sessions");
    const folder = fs.readdirSync(sessions)[0] as string;
    const file = path.join(sessions, folder, fs.readdirSync(path.join(sessions, folder))[0] as string);
    const entries = readJsonlLines(file) as Array<{ type: string; [key: string]: unknown }>;
    expect(entries.map((entry) => entry.type)).toEqual([
      "session",
      "message",
      "message",
      "custom_message",
      "message",
      "message",
      "message",
      "message",
      "context_edit",
      "compaction",
      "message",
      "custom_message",
      "message",
    ]);
    expect(entries.find((entry) => entry.type === "compaction")).toMatchObject({
      fromHook: true,
      details: { summarizer: "own" },
    });
  });

  it("an unsupported pi member fails at start-up with a message naming it", async () => {
    fs.writeFileSync(
      path.join(home, "extensions", "mask.mjs"),
      'export default function (pi) { pi.registerCommand("x", { handler: async () => {} }); }\n',
    );
    const run = await runCliProcess(["-p", "hi", "--model", "anthropic/claude-small"], { env, cwd: project });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("pi.registerCommand");
    expect(run.stderr).toContain("mask.mjs");
    expect(server.requests).toHaveLength(0);
  });
});
