import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWireServer, type TestLlmServer, textReply, toolCallReply } from "@arbor/providers/testing";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHostileTally } from "../src/hostile-figures";
import { type BuiltCliRun, hasStackTrace, minimalEnv, runBuiltCli } from "../src/run-built-cli";
import { diffFolderSnapshots, snapshotFolder } from "../src/snapshot-folder";

/**
 * Hostile and careless session files (issue "safe by default", section 6), driven through the built
 * CLI as a user would hit them: offline commands on empty, header-only and damaged files, print
 * mode with `--session` on files that are not sessions or hold invalid entries. The model is the
 * wire-level test server through the official Anthropic SDK.
 */
const tally = createHostileTally("sessions", "hostile and careless session files");
afterAll(() => tally.report());

let server: TestLlmServer;
/** The folder holding the session files (read-only commands must leave it exactly as it was). */
let dir: string;
/** HOME and ARBOR_HOME (the index cache lives there, documented). */
let home: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  server = await startWireServer({ apiKey: "test-key" });
});
afterAll(() => server.close());

beforeEach(() => {
  server.reset();
  dir = mkdtempSync(join(tmpdir(), "arbor-hostile-sessions-"));
  home = mkdtempSync(join(tmpdir(), "arbor-hostile-home-"));
  env = minimalEnv({
    HOME: home,
    ARBOR_HOME: join(home, ".arbor"),
    ANTHROPIC_API_KEY: "test-key",
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
  });
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

const HEADER = {
  type: "session",
  version: 3,
  id: "hostile-session",
  timestamp: "2025-01-01T00:00:00.000Z",
  cwd: "/work",
};

function userEntry(id: string, parentId: string | null, content: unknown): Record<string, unknown> {
  return {
    type: "message",
    id,
    parentId,
    timestamp: "2025-01-01T00:00:01.000Z",
    message: { role: "user", content, timestamp: 1735689601000 },
  };
}

function assistantEntry(id: string, parentId: string | null, text: string): Record<string, unknown> {
  return {
    type: "message",
    id,
    parentId,
    timestamp: "2025-01-01T00:00:02.000Z",
    message: {
      role: "assistant",
      content: [{ type: "text", text }],
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage: {
        input: 10,
        output: 2,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 12,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason: "stop",
      timestamp: 1735689602000,
    },
  };
}

const jsonl = (...lines: Record<string, unknown>[]) =>
  lines.map((line) => `${JSON.stringify(line)}\n`).join("");

function writeSession(name: string, text: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Runs the built CLI in `dir` and counts the probe: a stack trace is a crash. */
async function probe(args: string[], options: { readOnly?: boolean } = {}): Promise<BuiltCliRun> {
  const before = options.readOnly ? snapshotFolder(dir) : undefined;
  const run = await runBuiltCli(args, { env, cwd: dir });
  const changed = before ? diffFolderSnapshots(before, snapshotFolder(dir)) : [];
  tally.count({
    stackTraceCrashes: hasStackTrace(run.stdout + run.stderr) ? 1 : 0,
    filesChangedByReadOnlyCommands: changed.length,
  });
  expect(run.timedOut).toBe(false);
  expect(hasStackTrace(run.stdout + run.stderr)).toBe(false);
  expect(run.stderr).not.toContain("internal error");
  if (options.readOnly) expect(changed).toEqual([]);
  return run;
}

const readOnly = { readOnly: true };

describe("empty and header-only files", () => {
  it("an empty file: inspect, tree and compact say it holds no session yet, and change nothing", async () => {
    const file = writeSession("empty.jsonl", "");
    for (const args of [
      ["inspect", file],
      ["inspect", file, "--json"],
      ["tree", file],
    ]) {
      const run = await probe(args, readOnly);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe(
        `arbor: ${file}: the file is empty: no session header, so no session yet (\`arbor --session ${file}\` would start one there)\n`,
      );
    }
    const before = snapshotFolder(dir);
    const compact = await probe(["compact", file, "--offline"]);
    expect(compact.code).toBe(1);
    expect(compact.stderr).toContain("the file is empty");
    expect(diffFolderSnapshots(before, snapshotFolder(dir))).toEqual([]);
  });

  it("a header-only file is an empty session: inspect reports it, tree shows no entries, compact has nothing to do", async () => {
    const text = jsonl(HEADER);
    const file = writeSession("header-only.jsonl", text);
    const json = await probe(["inspect", file, "--json"], readOnly);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      sessionId: "hostile-session",
      version: 3,
      leafId: null,
      path: [],
      context: { estimatedTokens: 0, messages: [] },
      compaction: null,
      compactionSettings: {
        contextWindow: null,
        keepRecentTokens: 20000,
        reserveTokens: 16384,
        scaledFrom: null,
        threshold: null,
      },
      validation: { linesValidated: 1, linesInFile: 1 },
      // Added by the system-prompt work (issue 14 train): the prompt a run would send, for the header's cwd.
      systemPrompt: expect.objectContaining({ cwd: "/work" }),
    });
    const text1 = await probe(["inspect", file], readOnly);
    expect(text1.code).toBe(0);
    expect(text1.stdout).toContain("Entries   0 in the file");
    expect(text1.stdout).toContain("nothing to compact");
    const tree = await probe(["tree", file], readOnly);
    expect(tree.code).toBe(0);
    expect(tree.stdout).toBe(
      "Session hostile-session · 0 entries · leaf (none)\n\n(no entries: the file holds only its header)\n",
    );
    const compact = await probe(["compact", file, "--offline"]);
    expect(compact.code).toBe(0);
    expect(compact.stdout).toBe(`Nothing to compact: ${file} has no entries.\n`);
    expect(readFileSync(file, "utf8")).toBe(text);
  });
});

describe("schema-invalid entries", () => {
  const original = jsonl(
    HEADER,
    userEntry("u1", null, "first question"),
    assistantEntry("a1", "u1", "first answer"),
    userEntry("bad", "a1", 123),
    { ...assistantEntry("a2", "bad", "stamped wrong"), timestamp: 42 },
  );

  it("offline commands name the file and line of the first invalid entry and change nothing", async () => {
    const file = writeSession("invalid.jsonl", original);
    for (const args of [
      ["inspect", file],
      ["tree", file],
    ]) {
      const run = await probe(args, readOnly);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        new RegExp(`^arbor: ${file}:4: entry bad is invalid \\(message entry: message\\.content: .*\\)`),
      );
    }
  });

  it("print mode warns with file and line, leaves them out of the request, and keeps working run after run", async () => {
    const file = writeSession("invalid.jsonl", original);
    for (let run = 1; run <= 2; run++) {
      server.enqueue(textReply(`answer ${run}`));
      const result = await probe(["-p", `question ${run}`, "--session", file]);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`answer ${run}\n`);
      expect(result.stderr).toContain(`arbor: warning: ${file}:4: entry bad is invalid (`);
      expect(result.stderr).toContain(`arbor: warning: ${file}:5: entry a2 is invalid (`);
      expect(result.stderr).toContain("left out of the projection");
      const body = JSON.stringify(server.requests.at(-1)?.body);
      expect(body).toContain("first question");
      expect(body).toContain("first answer");
      expect(body).not.toContain("stamped wrong");
      expect(body).toContain(`question ${run}`);
    }
    expect(server.requests).toHaveLength(2);
    // The file holds what it held, then exactly the two turns: no error message appended.
    const text = readFileSync(file, "utf8");
    expect(text.startsWith(original)).toBe(true);
    const added = text
      .slice(original.length)
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { message: { role: string; stopReason?: string } });
    expect(added.map((entry) => `${entry.message.role}:${entry.message.stopReason ?? ""}`)).toEqual([
      "user:",
      "assistant:stop",
      "user:",
      "assistant:stop",
    ]);
  });
});

describe("--session on a file that is not a session", () => {
  it.each([
    ["a one-line note without a final newline", "remember to water the plants"],
    ["a text file", "line one\nline two\n"],
    ["a JSON file", '{"name":"my-package","version":"1.0.0"}\n'],
    ["an entry without a header", jsonl(userEntry("u1", null, "hi"))],
    ["binary bytes", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff])],
  ])("refuses %s without touching it or anything beside it", async (_, content) => {
    const file = writeSession("notes.jsonl", content);
    const before = snapshotFolder(dir);
    const run = await probe(["-p", "hello", "--session", file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(file);
    expect(run.stderr).toMatch(/not a session file|session header/);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(diffFolderSnapshots(before, snapshotFolder(dir))).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });
});

describe("a UTF-8 byte order mark before the header", () => {
  it("is accepted by inspect, tree and print mode", async () => {
    const text = `\uFEFF${jsonl(HEADER, userEntry("u1", null, "hello"), assistantEntry("a1", "u1", "hi"))}`;
    const file = writeSession("bom.jsonl", text);
    const json = await probe(["inspect", file, "--json"], readOnly);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ sessionId: "hostile-session", version: 3, leafId: "a1" });
    const tree = await probe(["tree", file], readOnly);
    expect(tree.stdout).toContain("Session hostile-session · 2 entries · leaf a1");
    server.enqueue(textReply("still here"));
    const run = await probe(["-p", "and now?", "--session", file]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("still here\n");
    expect(readFileSync(file, "utf8").startsWith(text)).toBe(true);
  });
});

describe("a version 1 file", () => {
  it("gets the same ids on every read-only open: an id printed by tree works with inspect --leaf", async () => {
    const v1 = [
      { type: "session", id: "legacy", timestamp: "2024-01-01T00:00:00.000Z", cwd: "/work" },
      {
        type: "message",
        timestamp: "2024-01-01T00:00:01.000Z",
        message: { role: "user", content: "q1", timestamp: 1 },
      },
      {
        type: "message",
        timestamp: "2024-01-01T00:00:02.000Z",
        message: { role: "user", content: "q2", timestamp: 2 },
      },
      {
        type: "message",
        timestamp: "2024-01-01T00:00:03.000Z",
        message: { role: "user", content: "q3", timestamp: 3 },
      },
    ];
    const file = writeSession("v1.jsonl", jsonl(...v1));
    const first = await probe(["tree", file], readOnly);
    const second = await probe(["tree", file], readOnly);
    expect(first.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    // One row per entry after the header line and a blank line, each starting with the entry's id.
    const ids = first.stdout
      .split("\n\n")[1]
      ?.trim()
      .split("\n")
      .map((row) => /^([0-9a-f]{8}) /.exec(row)?.[1]);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    const middle = await probe(["inspect", file, "--json", "--leaf", ids?.[1] as string], readOnly);
    expect(middle.code).toBe(0);
    expect(JSON.parse(middle.stdout)).toMatchObject({
      version: null,
      leafId: ids?.[1],
      path: ids?.slice(0, 2),
    });
  });
});

describe("read-only commands", () => {
  it("create, change and remove nothing in the session's folder, also for a session large enough to be indexed", async () => {
    const lines: Record<string, unknown>[] = [HEADER];
    let parent: string | null = null;
    for (let k = 0; k < 600; k++) {
      const id = `e${String(k).padStart(7, "0")}`;
      lines.push(
        k % 2 === 0
          ? userEntry(id, parent, `question ${k} ${"x".repeat(2000)}`)
          : assistantEntry(id, parent, `answer ${k} ${"y".repeat(2000)}`),
      );
      parent = id;
    }
    const file = writeSession("large.jsonl", jsonl(...lines));
    expect(readFileSync(file).length).toBeGreaterThan(1024 * 1024);
    for (let round = 0; round < 2; round++) {
      for (const args of [
        ["inspect", file],
        ["inspect", file, "--json", "--full"],
        ["inspect", file, "--leaf", "e0000300"],
        ["tree", file],
      ]) {
        const run = await probe(args, readOnly);
        expect(run.code).toBe(0);
      }
    }
    // The index went to the documented cache under $ARBOR_HOME, not beside the session.
    expect(readdirSync(join(home, ".arbor", "cache", "session-index"))).toHaveLength(1);
  });
});

describe("the session file changed by another program while the session is open", () => {
  const cases: Array<[string, string, (file: string) => void]> = [
    [
      "deleted",
      "rm session.jsonl",
      (file) => {
        expect(existsSync(file)).toBe(false);
      },
    ],
    [
      "truncated",
      "truncate -s 10 session.jsonl",
      (file) => {
        expect(readFileSync(file, "utf8")).toBe(JSON.stringify(HEADER).slice(0, 10));
      },
    ],
    [
      "replaced",
      "printf 'someone else\\n' > other.txt && mv other.txt session.jsonl",
      (file) => {
        expect(readFileSync(file, "utf8")).toBe("someone else\n");
      },
    ],
    [
      "grown",
      'echo \'{"type":"custom","id":"zz"}\' >> session.jsonl',
      (file) => {
        expect(readFileSync(file, "utf8").endsWith('{"type":"custom","id":"zz"}\n')).toBe(true);
      },
    ],
  ];

  it.each(cases)(
    "%s by the agent's own bash command: detected before the next append, a clear error, nothing written to the wrong file",
    async (change, command, check) => {
      const file = writeSession("session.jsonl", jsonl(HEADER, userEntry("u1", null, "earlier question")));
      server.enqueue(toolCallReply("bash", { command }), textReply("never requested"));
      const run = await probe(["-p", "tidy up", "--session", file]);
      expect(run.code).toBe(1);
      const lines = run.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^arbor: ${file} (was|grew)`));
      expect(lines[0]).toContain("Nothing was appended");
      // The tool result was never appended anywhere, so the model was not asked again.
      expect(server.requests).toHaveLength(1);
      const recovered = readdirSync(dir).filter((name) => name.includes(".recovered-"));
      if (change === "deleted" || change === "replaced") {
        expect(recovered).toHaveLength(1);
        const saved = readFileSync(join(dir, recovered[0] as string), "utf8");
        expect(saved).toContain("earlier question");
        expect(saved).toContain("tidy up");
        expect(lines[0]).toContain(join(dir, recovered[0] as string));
      } else expect(recovered).toEqual([]);
      check(file);
      expect(readdirSync(dir).filter((name) => name.endsWith(".lock"))).toEqual([]);
    },
  );
});
