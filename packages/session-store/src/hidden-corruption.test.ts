/**
 * Lines whose damage the fast load scan cannot see (the line starts and ends like a valid entry, but
 * does not parse) are found when the entry is first read. From then on the store behaves as if the
 * line had been found corrupt at load, which is what pi does with it: reported, left out, kept in the
 * file. conformance.test.ts checks the result against pi's goldens for the two fixtures used here.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentMessage } from "@arbor/agent-loop";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSessionStore } from "./open-session-store";

const fixtures = join(import.meta.dirname, "__fixtures__", "sessions");

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "arbor-hidden-corruption-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function copyFixture(name: string): string {
  const path = join(dir, name);
  copyFileSync(join(fixtures, name), path);
  return path;
}

function texts(messages: readonly AgentMessage[]): string[] {
  return messages.map((message) => {
    const content = (message as { content?: unknown }).content;
    if (typeof content === "string") return content;
    if (Array.isArray(content)) return content.map((block) => (block as { text?: string }).text).join("");
    return (message as { summary?: string }).summary ?? "";
  });
}

describe("a corrupt line found when its entry is first read", () => {
  it("is left out of the projection asked for right after opening, and reported with its line", () => {
    const path = copyFixture("hidden-corruption.jsonl");
    const before = readFileSync(path);
    const store = openSessionStore(path);
    try {
      expect(store.issues).toEqual([]); // nothing visible to the load scan
      const projection = store.getProjection();
      // The last line (the load leaf) is torn: the leaf is the entry before it, as pi's would be; its
      // path stops at the entry whose parent (a corrupt label line) is gone.
      expect(store.leafId).toBe("s0000001");
      expect(texts(projection.messages)).toEqual(["third question", "third answer"]);
      // All three are met: the old leaf's path, read from the root, crosses the other two.
      const found = store.issues.map((issue) => [issue.code, issue.line, issue.entryId]);
      expect(found.sort((a, b) => Number(a[1]) - Number(b[1]))).toEqual([
        ["SESSION_LINE_CORRUPT", 4, "u0000002"],
        ["SESSION_LINE_CORRUPT", 7, "l0000002"],
        ["SESSION_LINE_CORRUPT", 11, "u0000004"],
      ]);
      const torn = store.issues.find((issue) => issue.line === 11);
      expect(torn?.message).toContain(`${path}:11`);
      expect(torn?.message).toContain("left out of the session");
    } finally {
      store.close();
    }
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it("gives the tree, labels, name and entries pi gives, and appends after the new leaf", () => {
    const path = copyFixture("hidden-corruption.jsonl");
    const store = openSessionStore(path);
    const ids = store.getEntries().map((entry) => entry.id);
    expect(ids).toEqual(["u0000001", "a0000001", "a0000002", "l0000001", "u0000003", "a0000003", "s0000001"]);
    expect(store.getTree().map((root) => root.entry.id)).toEqual(["u0000001", "a0000002", "u0000003"]);
    expect(store.getLabels().get("a0000001")?.label).toBe("checkpoint");
    expect(store.getLabel("u0000001")).toBeUndefined(); // its label line is the corrupt one
    expect(store.getSessionName()).toBe("hidden damage");
    expect(store.getEntry("u0000002")).toBeUndefined();
    expect(store.getChildren("a0000001")).toEqual([]);
    expect(store.issues.map((issue) => issue.line).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([4, 7, 11]);
    const next = store.appendMessage({ role: "user", content: "carry on", timestamp: 11 });
    expect(next.parentId).toBe("s0000001");
    store.close();

    // Reopened, the three damaged lines are still there, untouched, and the appended entry follows.
    const lines = readFileSync(path, "utf8").split("\n");
    expect(lines).toHaveLength(13);
    expect(JSON.parse(lines[11] as string).id).toBe(next.id);
    const reopened = openSessionStore(path);
    try {
      expect(texts(reopened.getProjection().messages)).toEqual([
        "third question",
        "third answer",
        "carry on",
      ]);
    } finally {
      reopened.close();
    }
  });

  it("is found at open with validate: 'full'", () => {
    const path = copyFixture("hidden-corruption.jsonl");
    const store = openSessionStore(path, { validate: "full" });
    try {
      expect(store.issues.map((issue) => issue.line)).toEqual([4, 7, 11]);
      expect(store.leafId).toBe("s0000001");
    } finally {
      store.close();
    }
  });

  it("in a compaction's kept range: the compaction keeps only what follows it, as in pi", () => {
    const path = copyFixture("hidden-corruption-in-kept-range.jsonl");
    const store = openSessionStore(path);
    try {
      const projection = store.getProjection();
      expect(projection.messages.map((message) => message.role)).toEqual([
        "compactionSummary",
        "user",
        "assistant",
      ]);
      expect(store.issues.map((issue) => [issue.line, issue.entryId])).toEqual([[5, "a0000002"]]);
    } finally {
      store.close();
    }
  });

  it("met while an appended compaction refreshes the projection: the append stands, the line is left out", () => {
    const fixture = readFileSync(join(fixtures, "hidden-corruption-in-kept-range.jsonl"), "utf8");
    // The same session, but its compaction keeps from u0000003, so the projection never reads a0000002.
    const path = join(dir, "late.jsonl");
    writeFileSync(path, fixture.replace('"firstKeptEntryId":"a0000001"', '"firstKeptEntryId":"u0000003"'));
    const store = openSessionStore(path);
    try {
      expect(texts(store.getProjection().messages).slice(1)).toEqual([
        "third question",
        "third answer",
        "fourth question",
        "fourth answer",
      ]);
      expect(store.issues).toEqual([]);
      const compaction = store.appendCompaction({
        summary: "## Goal\nEverything so far.",
        firstKeptEntryId: "u0000002",
        tokensBefore: 9000,
      });
      expect(store.leafId).toBe(compaction.id);
      expect(store.issues.map((issue) => issue.line)).toEqual([5]);
      // The kept range from u0000002 is cut at the corrupt line: nothing before the compaction is kept.
      expect(store.getProjection().messages.map((message) => message.role)).toEqual(["compactionSummary"]);
      expect(JSON.parse(readFileSync(path, "utf8").trim().split("\n").pop() as string).id).toBe(
        compaction.id,
      );
    } finally {
      store.close();
    }
  });
});
