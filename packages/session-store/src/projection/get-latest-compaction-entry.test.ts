import { describe, expect, it } from "vitest";
import { EntryChain } from "../__fixtures__/entry-builders";
import type { SessionEntry } from "../session-entry";
import { getLatestCompactionEntry } from "./get-latest-compaction-entry";

function compaction(chain: EntryChain, id: string, firstKeptEntryId: string): SessionEntry {
  return chain.add(id, { type: "compaction", summary: `summary ${id}`, firstKeptEntryId, tokensBefore: 100 });
}

describe("getLatestCompactionEntry", () => {
  it("is null for an empty path and for a path without a compaction", () => {
    const chain = new EntryChain();
    chain.user("u1");
    chain.assistant("a1");
    expect(getLatestCompactionEntry([])).toBeNull();
    expect(getLatestCompactionEntry(chain.entries)).toBeNull();
  });

  it("returns the last compaction, not the first, whatever follows it", () => {
    const chain = new EntryChain();
    chain.user("u1");
    const first = compaction(chain, "c1", "u1");
    chain.user("u2");
    const second = compaction(chain, "c2", "u2");
    chain.user("u3");
    chain.assistant("a3");
    expect(getLatestCompactionEntry(chain.entries)).toBe(second);
    expect(getLatestCompactionEntry(chain.entries.slice(0, 3))).toBe(first);
  });

  it("finds a compaction that is the first or the last entry", () => {
    const chain = new EntryChain();
    const only = compaction(chain, "c1", "c1");
    expect(getLatestCompactionEntry(chain.entries)).toBe(only);
    chain.user("u1");
    expect(getLatestCompactionEntry(chain.entries)).toBe(only);
    const last = compaction(chain, "c2", "u1");
    expect(getLatestCompactionEntry(chain.entries)).toBe(last);
  });

  it("never mutates the path", () => {
    const chain = new EntryChain();
    chain.user("u1");
    compaction(chain, "c1", "u1");
    const copy = [...chain.entries];
    getLatestCompactionEntry(chain.entries);
    expect(chain.entries).toEqual(copy);
  });
});
