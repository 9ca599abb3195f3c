import { appendFileSync, writeFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { header, jsonl, message, tempDir } from "./__fixtures__/storage-fixtures";
import { createJsonlStorage } from "./create-jsonl-storage";
import { createMemoryStorage } from "./create-memory-storage";
import type { StoredEntryRecord } from "./session-storage";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

/** pi's semantics: a byId map over the entries (last wins, session lines skipped). */
function reference(records: StoredEntryRecord[]): { parents: number[]; byId: Map<string, number> } {
  const byId = new Map<string, number>();
  records.forEach((r, i) => {
    if (r.id !== undefined && r.type !== "session") byId.set(r.id, i);
  });
  const parents = records.map((r) =>
    r.parentId === null ? -1 : r.parentId === undefined ? -2 : (byId.get(r.parentId) ?? -3),
  );
  return { parents, byId };
}

function trickySession(): string {
  const lines: Record<string, unknown>[] = [header()];
  let parent: string | null = null;
  for (let i = 0; i < 300; i++) {
    const id = `m${i}`;
    // branch points: every 37th entry hangs off an entry far back
    const parentId: string | null = i > 0 && i % 37 === 0 ? `m${i - 20}` : parent;
    lines.push(message(id, parentId));
    parent = id;
  }
  lines.push(message("fwd", "later")); // forward reference
  lines.push(message("later", "m299"));
  lines.push(message("orphan", "nowhere")); // missing parent
  lines.push({ type: "message", timestamp: "t", message: { role: "user", content: "v1, no ids" } });
  lines.push({ type: "session", id: "m5", timestamp: "t" }); // stray header: never an id target
  lines.push(message("dupChild", "m7"));
  lines.push(message("m7", "m299")); // duplicate id: every child of m7 now resolves here
  lines.push(message("root2", null));
  return jsonl(...lines);
}

describe("parentIndex and indexOfId", () => {
  it("resolve parents and ids like pi's byId map, cold, from the sidecar index, and in memory", () => {
    const path = tmp.file();
    const text = trickySession();
    writeFileSync(path, text);

    const cold = createJsonlStorage(path, { sidecarIndex: true, sidecarMinBytes: 0 });
    const loaded = cold.load();
    const { parents, byId } = reference(loaded.records);
    expect(Array.from(loaded.parentIndex ?? [])).toEqual(parents);
    expect(parents.filter((p) => p === -3)).toHaveLength(1);
    expect(parents[loaded.records.findIndex((r) => r.id === "m8")]).toBe(
      loaded.records.findLastIndex((r) => r.id === "m7"),
    );
    for (const [id, index] of byId) expect(cold.indexOfId(id)).toBe(index);
    expect(cold.indexOfId("nowhere")).toBeUndefined();
    cold.close();

    const warm = createJsonlStorage(path, { sidecarIndex: true, readOnly: true });
    const again = warm.load();
    expect(warm.stats().indexUsed).toBe(true);
    expect(again.records).toEqual(loaded.records);
    expect(Array.from(again.parentIndex ?? [])).toEqual(parents);
    for (const [id, index] of byId) expect(warm.indexOfId(id)).toBe(index);
    warm.close();

    const memory = createMemoryStorage({ content: text });
    const inMemory = memory.load();
    expect(Array.from(inMemory.parentIndex ?? [])).toEqual(parents);
    expect(memory.indexOfId("m150")).toBe(byId.get("m150"));
  });

  it("keeps indexOfId current after appends, and after a rolled-back append", () => {
    const path = tmp.file();
    const storage = createJsonlStorage(path, { sidecarIndex: true });
    storage.load();
    storage.append([header(), message("a", null), message("b", "a")]);
    storage.append([message("c", "a")]);
    expect([storage.indexOfId("a"), storage.indexOfId("b"), storage.indexOfId("c")]).toEqual([0, 1, 2]);
    const circular: Record<string, unknown> = { type: "custom", id: "d" };
    circular.self = circular;
    expect(() => storage.append([message("x", "c"), circular])).toThrow();
    expect(storage.indexOfId("x")).toBeUndefined();
    storage.close();
  });

  it.each([
    ["the id an orphan waited for", [message("nowhere", "m3"), message("kid", "orphan")]],
    ["a repeat of an id, and a child of it", [message("m150", "root2"), message("kid", "m150")]],
  ])("resolve parents across a sidecar index and the lines added after it: %s", (_, added) => {
    const path = tmp.file();
    writeFileSync(path, trickySession());
    const first = createJsonlStorage(path, { sidecarIndex: true, sidecarMinBytes: 0 });
    first.load();
    first.close(); // writes the index
    appendFileSync(path, jsonl(...added)); // as another writer would

    const storage = createJsonlStorage(path, { sidecarIndex: true, readOnly: true });
    const loaded = storage.load();
    expect(storage.stats().indexUsed).toBe(true);
    const { parents, byId } = reference(loaded.records);
    expect(Array.from(loaded.parentIndex ?? [])).toEqual(parents);
    for (const [id, index] of byId) expect(storage.indexOfId(id)).toBe(index);
    storage.close();
  });
});
