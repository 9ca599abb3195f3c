import { describe, expect, it } from "vitest";
import type { StoredEntryRecord } from "../session-storage";
import { IdIndex } from "./id-index";
import { MapIdIndex } from "./map-id-index";
import { PackedIds } from "./packed-ids";
import { RecordTable } from "./record-table";

/** Records with repeated ids, a stray session line, records without an id and forks. */
function hostileRecords(count: number, seed: number): StoredEntryRecord[] {
  let state = seed;
  const random = (n: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state % n;
  };
  const records: StoredEntryRecord[] = [];
  for (let i = 0; i < count; i++) {
    const kind = random(20);
    const id = kind === 0 ? undefined : kind === 1 ? `r${random(Math.max(1, i))}` : `e${i}`;
    const parentId = i === 0 || kind === 2 ? null : kind === 3 ? `missing${i}` : `e${random(i)}`;
    records.push({ type: kind === 4 ? "session" : "message", id, parentId, role: "user" });
  }
  return records;
}

/** The records' ids as a table keeps them, and which of them are stray session lines. */
function idsOf(records: StoredEntryRecord[]): { ids: PackedIds; isSession: (i: number) => boolean } {
  const ids = new PackedIds(records.length);
  for (const [i, r] of records.entries()) ids.set(i, r.id);
  ids.size = records.length;
  return { ids, isSession: (i) => records[i]?.type === "session" };
}

function skipped(records: StoredEntryRecord[]): number[] {
  const skip: number[] = [];
  records.forEach((r, i) => {
    if (r.id === undefined || r.type === "session") skip.push(i);
  });
  return skip;
}

describe("MapIdIndex (storage)", () => {
  it("finds, counts repeats and saves the same state as IdIndex, in one batch or many", () => {
    for (const seed of [1, 2, 3]) {
      const records = hostileRecords(3000, seed);
      const hashes = new Uint32Array(records.length);
      records.forEach((r, i) => {
        if (r.id !== undefined && r.type !== "session") hashes[i] = IdIndex.hash(r.id);
      });
      const { ids, isSession } = idsOf(records);
      const fnv = new IdIndex(ids, 16);
      const map = new MapIdIndex(ids, isSession);
      const skip = skipped(records);
      for (let from = 0; from < records.length; from += 700) {
        const to = Math.min(records.length, from + 700);
        const part = skip.filter((i) => i >= from && i < to);
        fnv.insertMany(from, to, hashes, part);
        map.insertMany(from, to, undefined, part);
        expect(map.repeats).toBe(fnv.repeats);
        expect(map.duplicates).toBe(fnv.duplicates);
      }
      for (const r of records) if (r.id !== undefined) expect(map.find(r.id)).toBe(fnv.find(r.id));
      expect(map.find("nope")).toBe(-1);
      const saved = map.state();
      const expected = fnv.state();
      expect(saved.count).toBe(expected.count);
      expect(saved.duplicates).toBe(expected.duplicates);
      expect([...saved.hashes]).toEqual([...expected.hashes]);
      // A restored FNV index (the next open's sidecar) answers every lookup the same way.
      const restored = IdIndex.restore(ids, saved);
      for (const r of records) if (r.id !== undefined) expect(restored.find(r.id)).toBe(fnv.find(r.id));
      const built = MapIdIndex.build(ids, isSession);
      for (const r of records) if (r.id !== undefined) expect(built.find(r.id)).toBe(fnv.find(r.id));
      expect(built.repeats).toBe(fnv.repeats);
    }
  });

  it("gives a record table the same parents, lookups and columns as the typed-array index", () => {
    const records = hostileRecords(2500, 7);
    const plain = new RecordTable();
    const mapped = new RecordTable();
    mapped.useMapIndex();
    records.forEach((r, i) => {
      plain.push(r, i * 10, 9, i + 2);
      mapped.push(r, i * 10, 9, i + 2);
      if (i % 500 === 499) expect([...mapped.parentIndex()]).toEqual([...plain.parentIndex()]);
    });
    expect([...mapped.parentIndex()]).toEqual([...plain.parentIndex()]);
    for (const r of records)
      if (r.id !== undefined) expect(mapped.indexOfId(r.id)).toBe(plain.indexOfId(r.id));
    const a = mapped.columns().idIndex;
    const b = plain.columns().idIndex;
    expect([...a.hashes]).toEqual([...b.hashes]);
    expect(a.count).toBe(b.count);
    mapped.truncate(1200);
    plain.truncate(1200);
    expect([...mapped.parentIndex()]).toEqual([...plain.parentIndex()]);
    expect(mapped.indexOfId("e1500")).toBe(-1);
  });
});
