import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentMessage } from "@arbor/agent-loop";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { usage } from "./__fixtures__/entry-builders";
import { createSessionStore } from "./create-session-store";
import { openSessionStore } from "./open-session-store";

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

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "arbor-lazy-validation-"));
  file = join(dir, "s.jsonl");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** 20 turns; a compaction after turn 15 keeping from turn 12; a side branch off turn 3. */
function writeSession(): { turnIds: string[]; sideId: string } {
  const store = createSessionStore({ path: file, cwd: "/p" });
  const turnIds: string[] = [];
  for (let turn = 0; turn < 20; turn++) {
    turnIds.push(store.appendMessage(user(`question ${turn}`)).id);
    store.appendMessage(assistant(`answer ${turn}`));
    if (turn === 15)
      store.appendCompaction({ summary: "so far", firstKeptEntryId: turnIds[12] as string, tokensBefore: 9 });
  }
  const leaf = store.leafId as string;
  store.branch(turnIds[3] as string);
  const sideId = store.appendMessage(user("a side question")).id;
  store.branch(leaf);
  store.appendMessage(user("back on the main line"));
  store.close();
  return { turnIds, sideId };
}

/** Rewrites the entry `id` of the session file with a content of the wrong type (invalid, still JSON). */
function makeInvalid(id: string): void {
  const lines = readFileSync(file, "utf8").split("\n");
  const at = lines.findIndex((line) => line.includes(`"id":"${id}"`));
  const entry = JSON.parse(lines[at] as string);
  entry.message.content = 123;
  lines[at] = JSON.stringify(entry);
  writeFileSync(file, lines.join("\n"));
}

describe("validatedEntryCount", () => {
  it("counts only the entries read: none at a lazy open, the context after a projection, all with full", () => {
    writeSession();
    const lazy = openSessionStore(file, { storage: { readOnly: true } });
    expect(lazy.validatedEntryCount).toBe(0);
    lazy.getProjection();
    const afterProjection = lazy.validatedEntryCount;
    // The compaction, turns 12..19 (two entries each) and the last user message; not the history before.
    expect(afterProjection).toBeGreaterThanOrEqual(1 + 16 + 1);
    expect(afterProjection).toBeLessThan(lazy.getEntryCount() / 2);
    lazy.getBranch();
    expect(lazy.validatedEntryCount).toBe(lazy.getBranch().length);
    lazy.close();
    const full = openSessionStore(file, { storage: { readOnly: true }, validate: "full" });
    expect(full.validatedEntryCount).toBe(full.getEntryCount());
    full.close();
  });

  it("counts appended entries, which are checked before they are written", () => {
    const store = createSessionStore({ path: file, cwd: "/p" });
    store.appendMessage(user("one"));
    store.appendMessage(assistant("two"));
    expect(store.validatedEntryCount).toBe(2);
    store.close();
  });
});

describe("getPathIds", () => {
  it("equals getBranch's ids, for the leaf and another entry, without reading any entry", () => {
    const { turnIds, sideId } = writeSession();
    const store = openSessionStore(file, { storage: { readOnly: true } });
    const leafPath = store.getPathIds();
    const sidePath = store.getPathIds(sideId);
    const turnPath = store.getPathIds(turnIds[7]);
    expect(store.validatedEntryCount).toBe(0);
    expect(leafPath).toEqual(store.getBranch().map((entry) => entry.id));
    expect(sidePath).toEqual(store.getBranch(sideId).map((entry) => entry.id));
    expect(turnPath).toEqual(store.getBranch(turnIds[7]).map((entry) => entry.id));
    expect(sidePath.at(-1)).toBe(sideId);
    expect(store.getPathIds("no-such-id")).toEqual([]);
    store.close();
  });

  it("leaves out an entry already found invalid, as getBranch does, and keeps one not read yet", () => {
    const { turnIds } = writeSession();
    makeInvalid(turnIds[2] as string);
    const store = openSessionStore(file, { storage: { readOnly: true } });
    expect(store.getPathIds()).toContain(turnIds[2]);
    expect(store.issues).toEqual([]);
    const branch = store.getBranch();
    expect(store.issues.map((issue) => issue.entryId)).toEqual([turnIds[2]]);
    expect(store.getPathIds()).not.toContain(turnIds[2]);
    expect(store.getPathIds()).toEqual(branch.map((e) => e.id));
    store.close();
  });
});

describe("getPathIdsJson and getPathLength", () => {
  /** Both ways the store keeps a file's records: objects, and the columns of a large file. */
  const layouts = [
    ["records as objects", {}],
    ["records as columns", { recordColumnsMinBytes: 0 }],
  ] as const;

  it.each(layouts)("is JSON.stringify(getPathIds(id)) to the byte, with %s", (_name, storage) => {
    const { turnIds, sideId } = writeSession();
    const store = openSessionStore(file, { storage: { readOnly: true, ...storage } });
    for (const id of [undefined, sideId, turnIds[7], turnIds[0], "no-such-id"]) {
      expect(store.getPathIdsJson(id)).toBe(JSON.stringify(store.getPathIds(id)));
      expect(store.getPathLength(id)).toBe(store.getPathIds(id).length);
    }
    expect(store.getPathLength()).toBeGreaterThan(20);
    expect(store.getPathLength("no-such-id")).toBe(0);
    expect(JSON.parse(store.getPathIdsJson())).toHaveLength(store.getBranch().length);
    expect(store.validatedEntryCount).toBe(store.getBranch().length);
    store.close();
  });

  it.each(layouts)("escapes what JSON escapes in ids of any length, with %s", (_name, storage) => {
    const ids = [
      'abc"defg',
      "back\\sl",
      "ctl\u0001\u001f",
      "é9",
      "a-much-longer-id",
      "\u2028x",
      "12345678",
      "x",
    ];
    const lines = [
      JSON.stringify({
        type: "session",
        version: 3,
        id: "s",
        timestamp: "2026-01-01T00:00:00.000Z",
        cwd: "/p",
      }),
    ];
    ids.forEach((id, at) => {
      const entry = {
        type: "message",
        id,
        parentId: at === 0 ? null : ids[at - 1],
        timestamp: "2026-01-01T00:00:01.000Z",
      };
      lines.push(JSON.stringify({ ...entry, message: { role: "user", content: `m${at}`, timestamp: 1 } }));
    });
    writeFileSync(file, `${lines.join("\n")}\n`);
    const store = openSessionStore(file, { storage: { readOnly: true, ...storage } });
    expect(store.getPathIds()).toEqual(ids);
    expect(store.getPathIdsJson()).toBe(JSON.stringify(ids));
    expect(store.getPathIdsJson("ctl\u0001\u001f")).toBe(JSON.stringify(ids.slice(0, 3)));
    store.close();
  });

  it("copies plain ids the columns keep as bytes, and stringifies only the others", () => {
    const { turnIds } = writeSession();
    const store = openSessionStore(file, { storage: { readOnly: true, recordColumnsMinBytes: 0 } });
    const stringify = vi.spyOn(JSON, "stringify");
    try {
      expect(JSON.parse(store.getPathIdsJson())).toContain(turnIds[19]);
      expect(stringify).not.toHaveBeenCalled();
    } finally {
      stringify.mockRestore();
      store.close();
    }
  });

  it.each(layouts)("leaves out an entry already found invalid, with %s", (_name, storage) => {
    const { turnIds } = writeSession();
    makeInvalid(turnIds[2] as string);
    const store = openSessionStore(file, { storage: { readOnly: true, ...storage } });
    expect(JSON.parse(store.getPathIdsJson())).toContain(turnIds[2]);
    const before = store.getPathLength();
    store.getBranch();
    expect(JSON.parse(store.getPathIdsJson())).not.toContain(turnIds[2]);
    expect(store.getPathLength()).toBe(before - 1);
    expect(store.getPathIdsJson()).toBe(JSON.stringify(store.getPathIds()));
    store.close();
  });
});

describe("getTreeShape", () => {
  /** A tree as nested `[id, label, children]` triples, from either form. */
  type Plain = [string, string | undefined, Plain[]];
  const plain = (
    nodes: readonly { children: readonly unknown[]; label?: string }[],
    idOf: (node: never) => string,
  ): Plain[] =>
    nodes.map((node) => [
      idOf(node as never),
      node.label,
      plain(node.children as { children: unknown[]; label?: string }[], idOf),
    ]);

  it("is getTree's forest without the entries, and reads only fork children and labels", () => {
    const { turnIds, sideId } = writeSession();
    const more = openSessionStore(file);
    more.appendLabelChange(turnIds[5] as string, "checkpoint");
    more.branch(turnIds[3] as string);
    more.appendMessage(user("a third branch at turn 3"));
    more.close();
    const store = openSessionStore(file, { storage: { readOnly: true } });
    const shape = store.getTreeShape();
    // Turn 3's user entry has three children; the label entry is read to resolve the label.
    expect(store.validatedEntryCount).toBeLessThanOrEqual(3 + 1);
    const full = openSessionStore(file, { storage: { readOnly: true } });
    const tree = full.getTree();
    expect(plain(shape, (node: { id: string }) => node.id)).toEqual(
      plain(tree, (node: { entry: { id: string } }) => node.entry.id),
    );
    const labelled = JSON.stringify(plain(shape, (node: { id: string }) => node.id));
    expect(labelled).toContain(`"${turnIds[5]}","checkpoint"`);
    expect(labelled).toContain(sideId);
    store.close();
    full.close();
  });
});
