import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openSessionStore } from "@arbor/session-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertCliBuilt, REPO_ROOT } from "./helpers/cli-paths";
import { isolatedEnv, runCliProcess } from "./helpers/run-cli-process";

const EXAMPLE = path.join(REPO_ROOT, "examples/todo-api-pagination.jsonl");
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  assertCliBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-offline-"));
  env = isolatedEnv({ ARBOR_HOME: path.join(dir, "home"), HOME: dir });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * The lines of a session of 10,200 entries (a header and one chain of user, assistant and tool
 * result messages with short texts): large enough for tree to make message rows from the lines.
 */
function largeSessionLines(): string[] {
  const lines = [
    JSON.stringify({
      type: "session",
      version: 3,
      id: "0197f1a2-0000-7000-8000-000000000001",
      timestamp: "2026-01-01T00:00:00.000Z",
      cwd: "/p",
    }),
  ];
  const text = (index: number) =>
    `entry ${index}: the quick brown fox jumps over the lazy dog, naïve café\nsecond line`;
  let parentId: string | null = null;
  for (let index = 0; index < 10_200; index++) {
    const id = index.toString(16).padStart(8, "0");
    const timestamp = new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString();
    const kind = index % 3;
    const message =
      kind === 0
        ? { role: "user", content: text(index), timestamp: index }
        : kind === 1
          ? {
              role: "assistant",
              content: [
                { type: "text", text: text(index) },
                { type: "toolCall", id: `c${index}`, name: "read", arguments: { path: "src/a.ts" } },
              ],
              api: "anthropic-messages",
              provider: "anthropic",
              model: "m",
              usage: {
                input: 1,
                output: 1,
                cacheRead: 0,
                cacheWrite: 0,
                totalTokens: 2,
                cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
              },
              stopReason: "toolUse",
              timestamp: index,
            }
          : {
              role: "toolResult",
              toolCallId: `c${index - 1}`,
              toolName: "read",
              content: [{ type: "text", text: text(index) }],
              isError: false,
              timestamp: index,
            };
    lines.push(JSON.stringify({ type: "message", id, parentId, timestamp, message }));
    parentId = id;
  }
  return lines;
}

function copyExample(name: string): string {
  const file = path.join(dir, name);
  fs.copyFileSync(EXAMPLE, file);
  return file;
}

async function inspectJson(file: string, ...flags: string[]) {
  const run = await runCliProcess(["inspect", file, "--json", ...flags], { env, cwd: dir });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(run.stdout.trim().split("\n")).toHaveLength(1);
  return JSON.parse(run.stdout);
}

function expectOneLineError(run: { code: number | null; stdout: string; stderr: string }, code: number) {
  expect(run.code).toBe(code);
  expect(run.stdout).toBe("");
  expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(run.stderr).toMatch(/^arbor: /);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

describe("arbor tree", () => {
  it("lists every entry type, including messages whose content is missing or null, without failing", async () => {
    // The store's own fixture of every entry type: every line is sound (arbor check finds only the
    // orphan the fixture holds on purpose, line 29), so tree must list it whole.
    const fixture = path.join(
      REPO_ROOT,
      "packages/session-store/src/__fixtures__/sessions/entry-types.jsonl",
    );
    const check = await runCliProcess(["check", fixture, "--json"], { env, cwd: dir });
    expect(JSON.parse(check.stdout).problems).toEqual([
      expect.objectContaining({ line: 29, code: "SESSION_PARENT_MISSING", entryId: "or000001" }),
    ]);
    const run = await runCliProcess(["tree", fixture], { env, cwd: dir });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/nu000002 assistant/);
    expect(run.stdout).toMatch(/nu000001 user/);
  });

  it("shows the branch, the summary, the label and the leaf of the example", async () => {
    const run = await runCliProcess(["tree", EXAMPLE], { env, cwd: dir });
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toContain('"todo-api: paginate GET /todos" · 125 entries · leaf 999198d2');
    // The line towards the leaf stays flush left; the abandoned branch comes first, one step in.
    expect(lines.find((line) => line.includes("← leaf"))).toMatch(/^999198d2 assistant/);
    const branch = lines.findIndex((line) => line.startsWith("├─ 4c82b5a3 user"));
    expect(lines[branch - 1]).toMatch(/^f65e5725 label/);
    expect(lines[branch + 1]).toMatch(/^│ {2}b13d0c60 assistant/);
    expect(lines[branch + 13]).toMatch(/^│ {2}e0195a14 assistant/);
    expect(lines[branch + 14]).toMatch(/^14306569 ↩ branch +summary of e0195a14/);
    expect(lines.find((line) => line.startsWith("2238dc3f"))).toContain("[offset-pagination]");
    expect(lines.filter((line) => /^[│ ├└─]*[0-9a-f]{8} /.test(line))).toHaveLength(125);
  });
});

describe("arbor inspect", () => {
  // Expected values below were computed by pi 1.6.0 (buildSessionProjection, estimateProjectedContextTokens,
  // prepareCompaction) on the same file, with the oracle recipe of pi-behavior.md §12.
  it("matches pi on the example at the file's leaf", async () => {
    const report = await inspectJson(EXAMPLE, "--keep-recent-tokens", "4000");
    expect(report.sessionId).toBe("019ce1a2-5f3b-7c41-9a2e-3d8f0b6c4e17");
    expect(report.version).toBe(3);
    expect(report.leafId).toBe("999198d2");
    expect(report.path).toHaveLength(111);
    expect(report.path.at(-1)).toBe("999198d2");
    expect(report.context.estimatedTokens).toBe(11541);
    expect(report.context.messages).toHaveLength(107);
    expect(report.context.messages[0]).toEqual({ entryId: "9bf43ffa", role: "system", estimatedTokens: 546 });
    expect(report.compaction).toEqual({
      firstKeptEntryId: "38f54472",
      isSplitTurn: true,
      turnStartEntryId: "4408fbde",
      messagesToSummarize: expect.any(Array),
      turnPrefixMessages: expect.any(Array),
      hasPreviousSummary: false,
      tokensBefore: 11541,
      readFiles: ["test/server.test.ts"],
      modifiedFiles: [
        "src/config.ts",
        "src/http/pagination.ts",
        "src/index.ts",
        "src/server.ts",
        "src/todos/store.ts",
        "test/pagination.test.ts",
      ],
    });
    expect(report.compaction.messagesToSummarize).toHaveLength(51);
    expect(report.compaction.turnPrefixMessages).toHaveLength(16);
    expect(report.compaction.turnPrefixMessages[0]).toEqual({ entryId: "4408fbde", role: "user" });
  });

  it("matches pi on the abandoned branch with --leaf", async () => {
    const report = await inspectJson(EXAMPLE, "--leaf", "e0195a14", "--keep-recent-tokens", "2000");
    expect([report.leafId, report.path.length, report.context.messages.length]).toEqual(["e0195a14", 69, 65]);
    expect(report.context.estimatedTokens).toBe(6801);
    expect(report.compaction).toMatchObject({
      firstKeptEntryId: "5fe748e5",
      isSplitTurn: true,
      turnStartEntryId: "91ada479",
      tokensBefore: 6801,
      readFiles: ["test/server.test.ts"],
      modifiedFiles: ["src/http/pagination.ts", "src/server.ts", "src/todos/store.ts"],
    });
    expect(report.compaction.messagesToSummarize).toHaveLength(8);
    expect(report.compaction.turnPrefixMessages).toHaveLength(29);
  });

  it("reports nothing to compact when the budget covers the context", async () => {
    expect((await inspectJson(EXAMPLE)).compaction).toBeNull();
    const text = await runCliProcess(["inspect", EXAMPLE], { env, cwd: dir });
    expect(text.stdout).toContain("Context: 107 messages, ~11,541 tokens");
    expect(text.stdout).toContain(
      "Next compaction (keepRecentTokens 20,000, the default): nothing to compact",
    );
  });

  it("says no model is recorded when the assistant messages name none", async () => {
    const file = path.join(dir, "no-model.jsonl");
    const header = {
      type: "session",
      version: 3,
      id: "s-no-model",
      timestamp: "2026-01-01T00:00:00.000Z",
      cwd: dir,
    };
    const user = { role: "user", content: "hi", timestamp: 1 };
    const assistant = { role: "assistant", content: [{ type: "text", text: "ok" }], timestamp: 2 };
    const entry = (id: string, parentId: string | null, message: object) =>
      JSON.stringify({ type: "message", id, parentId, timestamp: "2026-01-01T00:00:01.000Z", message });
    fs.writeFileSync(
      file,
      `${[JSON.stringify(header), entry("a1", null, user), entry("a2", "a1", assistant)].join("\n")}\n`,
    );
    const run = await runCliProcess(["inspect", file], { env, cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Model +\(none recorded\), thinking off$/m);
    expect(run.stdout).not.toContain("undefined");
  });

  it("adds the messages with --full", async () => {
    const report = await inspectJson(EXAMPLE, "--full");
    const byEntry = (id: string) =>
      report.context.messages.find((m: { entryId: string }) => m.entryId === id);
    expect(byEntry("14306569").message).toEqual({
      role: "branchSummary",
      summary: expect.stringContaining("Compare cursor-based pagination"),
    });
    expect(byEntry("d0f8090e").message).toMatchObject({ role: "user", content: [{ type: "text" }] });
    expect(byEntry("24c29cf8").message).toMatchObject({ role: "assistant", stopReason: "error" });
  });

  it("uses keepRecentTokens from the settings file of a trusted folder only", async () => {
    const cwd = path.join(dir, "project");
    fs.mkdirSync(path.join(cwd, ".arbor"), { recursive: true });
    fs.writeFileSync(
      path.join(cwd, ".arbor/settings.json"),
      JSON.stringify({ compaction: { keepRecentTokens: 4000 } }),
    );
    const untrusted = await runCliProcess(["inspect", EXAMPLE, "--json"], { env, cwd });
    expect(JSON.parse(untrusted.stdout).compaction?.firstKeptEntryId).not.toBe("38f54472");
    expect(untrusted.stderr).toMatch(
      /^arbor: warning: ignored the project configuration of .*project, untrusted: \.arbor\/settings\.json; trust the folder with `arbor trust`\n$/,
    );
    expect((await runCliProcess(["trust"], { env, cwd })).code).toBe(0);
    const run = await runCliProcess(["inspect", EXAMPLE, "--json"], { env, cwd });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout).compaction.firstKeptEntryId).toBe("38f54472");
  });
});

describe("arbor compact", () => {
  it("compacts offline, and the result projects like pi", async () => {
    const file = copyExample("compact.jsonl");
    const before = fs.readFileSync(file, "utf8");
    const run = await runCliProcess(["compact", file, "--offline", "--keep-recent-tokens", "4000"], {
      env,
      cwd: dir,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("with the offline summarizer (--offline)");
    const after = fs.readFileSync(file, "utf8");
    expect(after.startsWith(before)).toBe(true);
    const entry = JSON.parse(after.trimEnd().split("\n").at(-1) as string);
    expect(entry).toMatchObject({
      type: "compaction",
      parentId: "999198d2",
      firstKeptEntryId: "38f54472",
      tokensBefore: 11541,
      fromHook: false,
      details: { readFiles: ["test/server.test.ts"] },
    });
    expect(entry.summary).toContain("## Goal");
    expect(entry.summary).toMatch(/<modified-files>\nsrc\/config\.ts\n/);
    const report = await inspectJson(file);
    expect(report.leafId).toBe(entry.id);
    // pi 1.6.0 projects the compacted file to 41 messages: the checkpoint, the summary and 39 kept ones.
    expect(report.context.messages).toHaveLength(41);
    // Usage from before a compaction is not trusted: the estimate is the sum of the messages' chars/4.
    const perMessage = report.context.messages.map(
      (message: { estimatedTokens: number }) => message.estimatedTokens,
    );
    expect(report.context.estimatedTokens).toBe(
      perMessage.reduce((sum: number, tokens: number) => sum + tokens, 0),
    );
    expect(perMessage[1]).toBe(Math.ceil(entry.summary.length / 4));
    expect(report.context.messages.slice(0, 2)).toMatchObject([
      { entryId: entry.id, role: "system" },
      { entryId: entry.id, role: "compactionSummary" },
    ]);
    expect(fs.readFileSync(EXAMPLE, "utf8")).toBe(before);
  });

  it("says so when there is nothing to compact and leaves the file alone", async () => {
    const file = copyExample("small.jsonl");
    const before = fs.readFileSync(file, "utf8");
    const run = await runCliProcess(["compact", file, "--offline"], { env, cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Nothing to compact");
    expect(fs.readFileSync(file, "utf8")).toBe(before);
  });

  it("refuses a session locked by another writer", async () => {
    const file = copyExample("locked.jsonl");
    const holder = openSessionStore(file);
    try {
      const run = await runCliProcess(["compact", file, "--offline"], { env, cwd: dir });
      expectOneLineError(run, 1);
      expect(run.stderr).toContain("locked");
    } finally {
      holder.close();
    }
  });
});

describe("errors", () => {
  it("reports a missing file", async () => {
    const run = await runCliProcess(["inspect", path.join(dir, "nope.jsonl")], { env, cwd: dir });
    expectOneLineError(run, 1);
    expect(run.stderr).toContain("nope.jsonl: no such session file");
  });

  it("reports a corrupt line with its number", async () => {
    const file = path.join(dir, "corrupt.jsonl");
    const lines = fs.readFileSync(EXAMPLE, "utf8").split("\n");
    lines[6] = '{"type":"message","id":"zz"';
    fs.writeFileSync(file, lines.join("\n"));
    const run = await runCliProcess(["tree", file], { env, cwd: dir });
    expectOneLineError(run, 1);
    expect(run.stderr).toContain("corrupt.jsonl:7: line is not valid JSON");
    // The store's message says the line is left out; the command's refusal says what to do instead.
    expect(run.stderr).toContain("`arbor check` lists every problem by line");
  });

  it("tree refuses a line damaged in the middle of a long text, naming it, small session or large", async () => {
    for (const lines of [fs.readFileSync(EXAMPLE, "utf8").split("\n"), largeSessionLines()]) {
      // A tool result with a long text: in the large session its row is made from the line's bytes,
      // so the damage must be found there.
      const at = lines.findIndex(
        (line, index) => index > 100 && /"role":"toolResult".*"text":"[^"]{40}/.test(line),
      );
      expect(at).toBeGreaterThan(0);
      for (const [name, damage] of [
        ["tab", (line: string) => line.replace(/("text":"[^"]{20})/, "$1\t")],
        ["quote", (line: string) => line.replace(/("text":"[^"]{20})/, '$1"')],
        ["escape", (line: string) => line.replace(/("text":"[^"]{20})/, "$1\\q")],
        ["cut", (line: string) => line.slice(0, -40)],
      ] as const) {
        const file = path.join(dir, `damaged-${name}-${lines.length}.jsonl`);
        const damaged = [...lines];
        damaged[at] = damage(lines[at] as string);
        expect(damaged[at]).not.toBe(lines[at]);
        fs.writeFileSync(file, damaged.join("\n"));
        const run = await runCliProcess(["tree", file], { env, cwd: dir });
        expectOneLineError(run, 1);
        expect(run.stderr).toContain(`${file}:${at + 1}:`);
        expect(run.stderr).toMatch(/not valid JSON|does not parse/);
      }
    }
  });

  it("tree of a large session shows a message whose unshown fields do not fit its type; arbor check reports it", async () => {
    const lines = largeSessionLines();
    // An entry's timestamp must be a string; the row does not show it.
    const at = 5001;
    expect(lines[at]).toMatch(
      /^\{"type":"message","id":"[0-9a-f]{8}","parentId":"[0-9a-f]{8}","timestamp":"/,
    );
    lines[at] = (lines[at] as string).replace(/"timestamp":"[^"]*"/, '"timestamp":5');
    const file = path.join(dir, "odd-timestamp.jsonl");
    fs.writeFileSync(file, lines.join("\n"));
    const tree = await runCliProcess(["tree", file], { env, cwd: dir });
    expect(tree.stderr).toBe("");
    expect(tree.code).toBe(0);
    const id = JSON.parse(lines[at] as string).id;
    expect(tree.stdout).toMatch(new RegExp(`^${id} (user|assistant|toolResult) `, "m"));
    const check = await runCliProcess(["check", file], { env, cwd: dir });
    expect(check.code).toBe(1);
    expect(check.stdout + check.stderr).toContain(`${file}:${at + 1}:`);
    // A small session (the header and the 500 entries up to that one) is read in full: tree refuses it.
    const small = path.join(dir, "odd-timestamp-small.jsonl");
    fs.writeFileSync(small, `${[lines[0], ...lines.slice(at - 499, at + 1)].join("\n")}\n`);
    const refused = await runCliProcess(["tree", small], { env, cwd: dir });
    expectOneLineError(refused, 1);
    expect(refused.stderr).toContain(`${small}:501:`);
  });

  it("reports a file that is not a session", async () => {
    const file = path.join(dir, "not-a-session.jsonl");
    fs.writeFileSync(file, '{"hello":"world"}\n');
    const run = await runCliProcess(["inspect", file, "--json"], { env, cwd: dir });
    expectOneLineError(run, 1);
    expect(run.stderr).toContain(file);
  });

  it("reports an unknown --leaf as a usage error", async () => {
    const run = await runCliProcess(["inspect", EXAMPLE, "--leaf", "deadbeef"], { env, cwd: dir });
    expectOneLineError(run, 2);
    expect(run.stderr).toContain("--leaf deadbeef: no entry with this id");
  });
});
