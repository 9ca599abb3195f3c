import { describe, expect, it } from "vitest";
import { EntryChain } from "../__fixtures__/entry-builders";
import type { SessionEntry } from "../session-entry";
import { buildContextEntries, isSystemMessageEntry, selectContextEntries } from "./build-context-entries";

function ids(entries: readonly SessionEntry[]): string[] {
  return entries.map((entry) => entry.id);
}

describe("buildContextEntries", () => {
  it("selects the context entries of the given leaf's path (not of the last entry)", () => {
    const chain = new EntryChain();
    chain.user("u1");
    chain.assistant("a1");
    chain.add("c1", { type: "compaction", summary: "s", firstKeptEntryId: "a1", tokensBefore: 9 });
    chain.user("u2");
    chain.user("other", "a sibling branch", "a1");
    expect(ids(buildContextEntries(chain.entries, "u2"))).toEqual(["c1", "a1", "u2"]);
    expect(ids(buildContextEntries(chain.entries, "other"))).toEqual(["u1", "a1", "other"]);
    const byId = new Map(chain.entries.map((entry) => [entry.id, entry]));
    expect(ids(buildContextEntries(chain.entries, "u2", byId))).toEqual(["c1", "a1", "u2"]);
  });
});

describe("selectContextEntries", () => {
  it("keeps a non-message entry before the compaction even when it carries a system-like `message` field", () => {
    const chain = new EntryChain();
    chain.user("u1");
    chain.add("x1", { type: "future_type", message: { role: "system", content: "not a message entry" } });
    chain.system("s1", { content: "a real system message" });
    chain.add("c1", { type: "compaction", summary: "s", firstKeptEntryId: "u1", tokensBefore: 9 });
    expect(ids(selectContextEntries(chain.entries))).toEqual(["c1", "u1", "x1"]);
  });

  it("keeps broken message entries in the kept range without throwing", () => {
    const chain = new EntryChain();
    chain.user("u1");
    chain.add("b1", { type: "message", message: null });
    chain.add("b2", { type: "message" });
    chain.add("c1", { type: "compaction", summary: "s", firstKeptEntryId: "u1", tokensBefore: 9 });
    expect(ids(selectContextEntries(chain.entries))).toEqual(["c1", "u1", "b1", "b2"]);
  });

  it("a compaction at the root of the path stands first, followed by everything after it", () => {
    const chain = new EntryChain();
    chain.add("c1", { type: "compaction", summary: "s", firstKeptEntryId: "c1", tokensBefore: 9 });
    chain.user("u1");
    chain.system("s1", { content: "after the compaction" });
    expect(ids(selectContextEntries(chain.entries))).toEqual(["c1", "u1", "s1"]);
  });
});

describe("isSystemMessageEntry", () => {
  it("is true only for a message entry whose message has the system role", () => {
    const chain = new EntryChain();
    expect(isSystemMessageEntry(chain.system("s1", {}))).toBe(true);
    expect(isSystemMessageEntry(chain.user("u1"))).toBe(false);
    expect(isSystemMessageEntry(chain.add("x1", { type: "other", message: { role: "system" } }))).toBe(false);
    expect(isSystemMessageEntry(chain.add("b1", { type: "message", message: null }))).toBe(false);
  });
});
