import { describe, expect, it } from "vitest";
import { migrateOwnedSessionEntries, migrateSessionEntries } from "./migrate-session-entries";

function sequentialIds() {
  let next = 0;
  return () => `id${(next++).toString().padStart(5, "0")}`;
}

describe("migrateSessionEntries", () => {
  it("chains v1 entries, resolves firstKeptEntryIndex and renames hookMessage", () => {
    const v1 = [
      { type: "session", id: "s", timestamp: "t", cwd: "/" },
      { type: "message", timestamp: "t", message: { role: "user", content: "a" } },
      { type: "message", timestamp: "t", message: { role: "hookMessage", customType: "x", content: "b" } },
      { type: "compaction", timestamp: "t", summary: "S", firstKeptEntryIndex: 2, tokensBefore: 5 },
    ];
    const snapshot = structuredClone(v1);
    const result = migrateSessionEntries(v1, { idSource: sequentialIds() });
    expect(result).toMatchObject({ fromVersion: 1, migrated: true });
    expect(result.entries).toEqual([
      { type: "session", id: "s", timestamp: "t", cwd: "/", version: 3 },
      {
        type: "message",
        timestamp: "t",
        message: { role: "user", content: "a" },
        id: "id00000",
        parentId: null,
      },
      {
        type: "message",
        timestamp: "t",
        message: { role: "custom", customType: "x", content: "b" },
        id: "id00001",
        parentId: "id00000",
      },
      {
        type: "compaction",
        timestamp: "t",
        summary: "S",
        tokensBefore: 5,
        id: "id00002",
        parentId: "id00001",
        firstKeptEntryId: "id00001",
      },
    ]);
    expect(v1).toEqual(snapshot);
  });

  it("does not resolve an index that points at the header", () => {
    const result = migrateSessionEntries([
      { type: "session", id: "s" },
      { type: "compaction", summary: "S", firstKeptEntryIndex: 0, tokensBefore: 1 },
    ]);
    expect(result.entries[1]).not.toHaveProperty("firstKeptEntryId");
    expect(result.entries[1]).not.toHaveProperty("firstKeptEntryIndex");
  });

  it("leaves v3 entries alone", () => {
    const entries = [
      { type: "session", version: 3, id: "s" },
      { type: "message", id: "a", parentId: null },
    ];
    const result = migrateSessionEntries(entries);
    expect(result.migrated).toBe(false);
    expect(result.entries[1]).toBe(entries[1]);
  });
});

describe("migrateOwnedSessionEntries", () => {
  it("gives what migrateSessionEntries gives, updating the entries it is handed in place", () => {
    const v1 = [
      { type: "session", id: "s", timestamp: "t", cwd: "/" },
      { type: "message", timestamp: "t", message: { role: "user", content: "a" } },
      { type: "compaction", timestamp: "t", summary: "S", firstKeptEntryIndex: 1, tokensBefore: 5 },
      { type: "compaction", timestamp: "t", summary: "T", firstKeptEntryIndex: 4, tokensBefore: 6 },
      { type: "message", timestamp: "t", message: { role: "hookMessage", customType: "x", content: "b" } },
    ];
    const expected = migrateSessionEntries(structuredClone(v1), { idSource: sequentialIds() });
    const owned = structuredClone(v1);
    const result = migrateOwnedSessionEntries(owned, { idSource: sequentialIds() });
    expect(result).toEqual(expected);
    expect(JSON.stringify(result.entries)).toBe(JSON.stringify(expected.entries)); // same key order
    expect(result.entries[1]).toBe(owned[1]);
  });
});
