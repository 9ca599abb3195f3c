import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentMessage } from "@arbor/agent-loop";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EntryChain, header, usage } from "./__fixtures__/entry-builders";
import { TestStorage } from "./__fixtures__/test-storage";
import { createInMemorySessionStore } from "./create-in-memory-session-store";
import { createSessionStore } from "./create-session-store";
import { openSessionStore } from "./open-session-store";
import { SessionStore } from "./session-store";
import { SessionStoreError } from "./session-store-error";

const user = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 1 });
const assistant = (text: string): AgentMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  api: "anthropic-messages",
  provider: "anthropic",
  model: "m",
  usage: usage(1, 1),
  stopReason: "stop",
  timestamp: 2,
});

function readLines(path: string): Record<string, unknown>[] {
  return readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

function thrown(run: () => unknown): SessionStoreError {
  try {
    run();
  } catch (error) {
    if (error instanceof SessionStoreError) return error;
    throw error;
  }
  throw new Error("expected a SessionStoreError");
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "arbor-store-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("new sessions", () => {
  it("names the file after time and id, writes the header with the first entry, and reopens identically", () => {
    const store = createSessionStore({ cwd: "/work", dir });
    expect(readdirSync(dir).filter((name) => name.endsWith(".jsonl"))).toEqual([]);
    const first = store.appendMessage(user("hello"));
    store.appendMessage(assistant("hi"));
    store.close();
    const [file] = readdirSync(dir).filter((name) => name.endsWith(".jsonl"));
    expect(file).toBe(`${store.header.timestamp.replace(/[:.]/g, "-")}_${store.sessionId}.jsonl`);
    const lines = readLines(join(dir, file as string));
    expect(lines[0]).toEqual({
      type: "session",
      version: 3,
      id: store.sessionId,
      timestamp: store.header.timestamp,
      cwd: "/work",
    });
    expect(store.sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first.id).toMatch(/^[0-9a-f]{8}$/);
    expect(lines[1]).toMatchObject({ type: "message", id: first.id, parentId: null });

    const reopened = openSessionStore(join(dir, file as string));
    expect(reopened.leafId).toBe(lines[2]?.id);
    expect(reopened.getProjection()).toEqual(store.getProjection());
    reopened.close();
  });

  it("with deferFileUntilConversation writes nothing until a user or assistant message", () => {
    const path = join(dir, "deferred.jsonl");
    const store = createSessionStore({ path, deferFileUntilConversation: true });
    store.appendModelChange("anthropic", "m");
    store.appendMessage({ role: "system", content: "prompt", timestamp: 0 });
    expect(existsSync(path)).toBe(false);
    store.appendMessage(user("now"));
    store.close();
    expect(readLines(path).map((line) => line.type)).toEqual([
      "session",
      "model_change",
      "message",
      "message",
    ]);
  });

  it("refuses an invalid session id and an existing file", () => {
    expect(thrown(() => createSessionStore({ dir, sessionId: "bad id!" })).code).toBe("SESSION_ID_INVALID");
    const path = join(dir, "taken.jsonl");
    writeFileSync(path, `${JSON.stringify(header())}\n`);
    expect(thrown(() => createSessionStore({ path })).code).toBe("SESSION_TARGET_INVALID");
  });

  it("retries an id that is already taken", () => {
    const ids = ["aaaaaaaa", "aaaaaaaa", "bbbbbbbb"];
    const store = createInMemorySessionStore({ idSource: () => ids.shift() ?? "cccccccc" });
    expect(store.appendMessage(user("1")).id).toBe("aaaaaaaa");
    expect(store.appendMessage(user("2")).id).toBe("bbbbbbbb");
  });
});

describe("appends", () => {
  it("rejects summary roles and malformed entries without writing anything", () => {
    const storage = new TestStorage([header()]);
    const store = new SessionStore(storage);
    const summary = {
      role: "compactionSummary",
      summary: "s",
      tokensBefore: 1,
      timestamp: 1,
    } as AgentMessage;
    expect(thrown(() => store.appendMessage(summary)).code).toBe("SESSION_ENTRY_INVALID");
    const broken = { role: "user", content: 42, timestamp: 1 } as unknown as AgentMessage;
    const error = thrown(() => store.appendMessage(broken));
    expect(error.code).toBe("SESSION_ENTRY_INVALID");
    expect(error.message).toContain("message.content");
    expect(storage.lines).toEqual([]);
  });

  it("leaves the store unchanged when the backend fails", () => {
    const storage = new TestStorage([header()]);
    const store = new SessionStore(storage);
    store.appendMessage(user("kept"));
    const before = store.getProjection();
    storage.failNextAppend = true;
    expect(() => store.appendMessage(user("lost"))).toThrow("disk full");
    expect(store.getEntryCount()).toBe(1);
    expect(store.getProjection()).toBe(before);
    expect(store.appendMessage(user("next")).parentId).toBe(before.entries[0]?.sourceEntry.id);
  });

  it("names the session file and entry in errors, with stable codes and reasons", () => {
    const path = join(dir, "errors.jsonl");
    const store = openSessionStore(path);
    const first = store.appendMessage(user("a"));
    store.appendModelChange("p", "m");
    const notFound = thrown(() => store.branch("zzzzzzzz"));
    expect(notFound).toMatchObject({ code: "ENTRY_NOT_FOUND", entryId: "zzzzzzzz", sessionFile: store.path });
    expect(notFound.message).toContain(store.path as string);
    expect(thrown(() => store.appendLabelChange("zzzzzzzz", "x")).code).toBe("ENTRY_NOT_FOUND");
    expect(thrown(() => store.getProjection("zzzzzzzz")).code).toBe("ENTRY_NOT_FOUND");
    const model = store.getLeafEntry()?.id as string;
    expect(thrown(() => store.appendContextEdit(model, null)).reason).toBe("target-not-editable");
    store.resetLeaf();
    expect(thrown(() => store.appendContextEdit(first.id, null)).reason).toBe("target-not-on-branch");
    const bad = { text: "x" } as unknown as { content: string };
    expect(thrown(() => store.appendContextEdit(first.id, bad)).reason).toBe("replacement-invalid");
    store.close();
    expect(thrown(() => store.appendMessage(user("late"))).code).toBe("SESSION_CLOSED");
  });

  it("stores the compaction's own id for retain-none and replays system messages into it", () => {
    const store = createInMemorySessionStore({ now: () => new Date("2025-02-01T00:00:00.000Z") });
    store.appendMessage({ role: "system", content: "base", sections: { a: "A" }, timestamp: 5 });
    store.appendMessage(user("q"));
    store.appendMessage({ role: "system", content: "", sections: { a: null, b: "B" }, timestamp: 6 });
    const compaction = store.appendCompaction({ summary: "S", firstKeptEntryId: null, tokensBefore: 3 });
    expect(compaction.firstKeptEntryId).toBe(compaction.id);
    expect(compaction.systemMessage).toEqual({
      role: "system",
      content: "base",
      sections: { b: "B" },
      timestamp: Date.parse("2025-02-01T00:00:00.000Z"),
    });
    expect(store.getProjection().messages.map((message) => message.role)).toEqual([
      "system",
      "compactionSummary",
    ]);
  });
});

describe("labels, names, children", () => {
  it("resolves labels session-wide in file order and names from the latest session_info", () => {
    const store = createInMemorySessionStore();
    const a = store.appendMessage(user("a"));
    const b = store.appendMessage(assistant("b"));
    store.appendLabelChange(a.id, "start");
    store.appendLabelChange(b.id, "answer");
    store.appendLabelChange(a.id, undefined);
    expect(store.getLabel(a.id)).toBeUndefined();
    expect(store.getLabel(b.id)).toBe("answer");
    store.appendSessionInfo("  Bug\r\nhunt ");
    expect(store.getSessionName()).toBe("Bug hunt");
    store.appendSessionInfo("");
    expect(store.getSessionName()).toBeUndefined();
    store.branch(a.id);
    store.appendMessage(user("c"));
    expect(store.getChildren(a.id).map((entry) => entry.type)).toEqual(["message", "message"]);
    expect(store.getChildren(null).map((entry) => entry.id)).toEqual([a.id]);
  });
});

describe("lazy loading", () => {
  function writeLongSession(path: string, count: number) {
    const chain = new EntryChain();
    for (let index = 0; index < count; index++) {
      if (index % 2 === 0) chain.user(`u${index}`);
      else chain.assistant(`a${index}`);
    }
    chain.add("cmp", {
      type: "compaction",
      summary: "S",
      firstKeptEntryId: `u${count - 4}`,
      tokensBefore: 1,
    });
    chain.user("last");
    writeFileSync(path, `${[header(), ...chain.entries].map((line) => JSON.stringify(line)).join("\n")}\n`);
  }

  it("reads only the projected entries and the model's source, and nothing more on append", () => {
    const path = join(dir, "long.jsonl");
    writeLongSession(path, 400);
    const store = openSessionStore(path);
    const stats = () =>
      (store.storage as unknown as { stats(): { entriesRead: number } }).stats().entriesRead;
    expect(stats()).toBe(0);
    const projection = store.getProjection();
    expect(projection.entries.map((entry) => entry.sourceEntry.id)).toEqual([
      "cmp",
      "u396",
      "a397",
      "u398",
      "a399",
      "last",
    ]);
    expect(projection.model).toEqual({ provider: "anthropic", modelId: "claude-x" });
    const afterProjection = stats();
    expect(afterProjection).toBeLessThanOrEqual(7);
    for (let index = 0; index < 20; index++) store.appendMessage(user(`more ${index}`));
    expect(store.getProjection().entries).toHaveLength(26);
    expect(stats()).toBe(afterProjection);
    store.close();
  });

  it("reports a structurally invalid entry with its file, line and id, and leaves it out of the projection", () => {
    const chain = new EntryChain();
    chain.user("u1");
    chain.assistant("a1");
    chain.user("bad", 123);
    const stamped = chain.assistant("a2", "reply a2", undefined, "claude-late");
    (stamped as unknown as { timestamp: unknown }).timestamp = 42;
    chain.add("t1", { type: "thinking_level_change", thinkingLevel: 7 });
    chain.add("n1", { type: "session_info", name: 5 });
    chain.add("l1", { type: "label", targetId: "u1", label: { text: "x" } });
    chain.user("u2");
    const path = join(dir, "invalid.jsonl");
    const text = `${[header(), ...chain.entries].map((line) => JSON.stringify(line)).join("\n")}\n`;
    writeFileSync(path, text);
    const seen: string[] = [];
    const store = openSessionStore(path, { onIssue: (issue) => seen.push(issue.code) });
    expect(store.issues).toEqual([]);
    const projection = store.getProjection();
    // Left out: the user message with numeric content, the assistant with a numeric timestamp (so
    // the model comes from a1), the thinking level change; the rest still projects, linked through them.
    expect(projection.entries.map((entry) => entry.sourceEntry.id)).toEqual(["u1", "a1", "u2"]);
    expect(projection.model).toEqual({ provider: "anthropic", modelId: "claude-x" });
    expect(projection.thinkingLevel).toBe("off");
    expect(store.getBranch().map((entry) => entry.id)).toEqual(["u1", "a1", "u2"]);
    expect(store.getSessionName()).toBeUndefined();
    expect(store.getLabels().size).toBe(0);
    const byId = Object.fromEntries(store.issues.map((issue) => [issue.entryId, issue]));
    expect(Object.keys(byId).sort()).toEqual(["a2", "bad", "l1", "n1", "t1"]);
    expect(byId.bad).toMatchObject({ code: "SESSION_ENTRY_INVALID", line: 4, sessionFile: store.path });
    expect(byId.bad?.message).toContain(`${store.path}:4: entry bad is invalid (`);
    expect(byId.bad?.message).toContain(
      "message.content: Invalid input: expected string or array, received number",
    );
    expect(byId.bad?.message).toContain("left out of the projection");
    expect(byId.a2?.message).toContain(`${store.path}:5: entry a2 is invalid (`);
    expect(byId.a2?.message).toContain("timestamp");
    expect(seen).toHaveLength(5);
    // Still in the file and in the tree; appending continues the branch through them.
    expect(store.getEntries().map((entry) => entry.id)).toEqual([
      "u1",
      "a1",
      "bad",
      "a2",
      "t1",
      "n1",
      "l1",
      "u2",
    ]);
    store.appendMessage(user("u3"));
    expect(store.getProjection().messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "user",
    ]);
    store.close();
    expect(readFileSync(path, "utf8").startsWith(text)).toBe(true);
    const full = openSessionStore(path, { validate: "full", storage: { readOnly: true } });
    expect(full.issues.map((issue) => issue.entryId)).toEqual(["bad", "a2", "t1", "n1", "l1"]);
    full.close();
  });

  it("accepts a compaction without firstKeptEntryId (pi's v1 migration writes one): it keeps nothing", () => {
    const chain = new EntryChain();
    chain.user("u1");
    chain.add("cmp", { type: "compaction", summary: "no kept id", tokensBefore: 1 });
    chain.user("u2");
    const store = createInMemorySessionStore({ entries: chain.entries });
    expect(store.getProjection().messages.map((message) => message.role)).toEqual([
      "compactionSummary",
      "user",
    ]);
    expect(store.issues).toEqual([]);
  });

  it("refuses a header without a string id", () => {
    const storage = new TestStorage([{ type: "session", id: 7 }]);
    expect(thrown(() => new SessionStore(storage)).code).toBe("SESSION_HEADER_INVALID");
  });
});

describe("migration", () => {
  const v1 = [
    { type: "session", id: "old", timestamp: "2024-01-01T00:00:00.000Z", cwd: "/old" },
    {
      type: "message",
      timestamp: "2024-01-01T00:00:01.000Z",
      message: { role: "user", content: "q", timestamp: 1 },
    },
    {
      type: "message",
      timestamp: "2024-01-01T00:00:02.000Z",
      message: { role: "hookMessage", customType: "h", content: "x", display: true, timestamp: 2 },
    },
  ];

  it("migrates in memory, leaves the file alone until the first write, then rewrites it keeping a backup", () => {
    const path = join(dir, "v1.jsonl");
    const original = `${v1.map((line) => JSON.stringify(line)).join("\n")}\n`;
    writeFileSync(path, original);
    const store = openSessionStore(path);
    expect(store.isMigrationPending).toBe(true);
    expect(store.header.version).toBe(3);
    expect(store.getProjection().messages.map((message) => message.role)).toEqual(["user", "custom"]);
    expect(readFileSync(path, "utf8")).toBe(original);
    const [first, second] = store.getEntries();
    store.appendMessage(user("new"));
    store.close();
    const lines = readLines(path);
    expect(lines.map((line) => [line.id, line.parentId])).toEqual([
      ["old", undefined],
      [first?.id, null],
      [second?.id, first?.id],
      [lines[3]?.id, second?.id],
    ]);
    expect(lines[0]?.version).toBe(3);
    const backups = readdirSync(dir).filter((name) => name.includes(".bak"));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(dir, backups[0] as string), "utf8")).toBe(original);
  });
});

describe("version 1 ids", () => {
  it("are the same on every read-only open, so an id from one open finds its entry in the next", () => {
    const path = join(dir, "v1-ids.jsonl");
    const lines = [{ type: "session", id: "old", timestamp: "2024-01-01T00:00:00.000Z", cwd: "/old" }];
    for (let k = 0; k < 50; k++) {
      lines.push({
        type: "message",
        timestamp: "2024-01-01T00:00:01.000Z",
        message: { role: "user", content: `m${k}`, timestamp: k },
      } as never);
    }
    const original = `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
    writeFileSync(path, original);
    const idsOf = () => {
      const store = openSessionStore(path, { storage: { readOnly: true } });
      const ids = store.getEntries().map((entry) => entry.id);
      store.close();
      return ids;
    };
    const first = idsOf();
    expect(new Set(first).size).toBe(50);
    for (const id of first) expect(id).toMatch(/^[0-9a-f]{8}$/);
    expect(idsOf()).toEqual(first);
    const again = openSessionStore(path, { storage: { readOnly: true } });
    expect(again.getProjection(first[20]).messages).toHaveLength(21);
    again.close();
    expect(readFileSync(path, "utf8")).toBe(original);
    // Another v1 file gets other ids (they come from its header, not from a fixed list).
    writeFileSync(path, original.replace('"id":"old"', '"id":"other"'));
    expect(idsOf()[0]).not.toBe(first[0]);
  });
});

describe("fork, clone and copy", () => {
  it("forks the path into a new file naming its parent, dropping and re-appending labels", () => {
    const store = openSessionStore(join(dir, "source.jsonl"));
    const a = store.appendMessage(user("a"));
    store.appendLabelChange(a.id, "first");
    const b = store.appendMessage(assistant("b"));
    store.appendMessage(user("on the main line"));
    const fork = store.forkSession(b.id, { dir });
    expect(fork.header.parentSession).toBe(store.path);
    expect(fork.path).not.toBe(store.path);
    const entries = fork.getEntries();
    expect(entries.map((entry) => entry.type)).toEqual(["message", "message", "label"]);
    expect(entries[1]).toMatchObject({ id: b.id, parentId: a.id });
    expect(entries[2]).toMatchObject({ targetId: a.id, label: "first", parentId: b.id });
    expect(fork.getProjection().messages).toEqual(store.getProjection(b.id).messages);
    expect(store.getEntryCount()).toBe(4);
    fork.close();
    expect(readLines(fork.path as string)).toHaveLength(4);

    const copy = store.copySession({ path: join(dir, "copy.jsonl") });
    expect(copy.getEntries()).toEqual(store.getEntries());
    expect(copy.leafId).toBe(store.getEntries()[3]?.id);
    copy.close();
    store.resetLeaf();
    expect(thrown(() => store.cloneSession()).code).toBe("ENTRY_NOT_FOUND");
    expect(thrown(() => store.copySession({ path: join(dir, "copy.jsonl") })).code).toBe(
      "SESSION_TARGET_INVALID",
    );
    store.close();
  });

  it("keeps unknown entry types and fields through a copy", () => {
    const chain = new EntryChain();
    chain.add("x1", { type: "future_type", payload: [1, 2] });
    chain.add("m1", {
      type: "message",
      message: { role: "user", content: "q", extra: { deep: true } },
      topLevelExtra: "kept",
    });
    const store = createInMemorySessionStore({ entries: [header(3, { headerExtra: 1 }), ...chain.entries] });
    const copy = store.copySession();
    expect(copy.getEntries()).toEqual(chain.entries);
    expect(copy.getProjection().entries.map((entry) => entry.messages.length)).toEqual([0, 1]);
  });
});
