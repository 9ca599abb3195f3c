import { describe, expect, it } from "vitest";
import type { StoredEntryRecord } from "../session-storage";
import { RecordTable } from "./record-table";

/** Records with repeated ids, stray session lines, no ids, long, short and non-ASCII ids, and forks. */
function hostileRecords(count: number, seed: number): StoredEntryRecord[] {
  let state = seed;
  const random = (n: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state % n;
  };
  const idOf = (i: number) => (i % 7 === 3 ? `long-id-${i}` : i % 11 === 5 ? `ü${i}` : `e${i}`);
  const records: StoredEntryRecord[] = [];
  for (let i = 0; i < count; i++) {
    const kind = random(20);
    const id = kind === 0 ? undefined : kind === 1 ? idOf(random(Math.max(1, i))) : idOf(i);
    const parentId =
      i === 0 || kind === 2 ? null : kind === 3 ? `missing${i}` : kind === 5 ? undefined : idOf(random(i));
    const record: StoredEntryRecord = {
      type: kind === 4 ? "session" : kind === 6 ? "label" : "message",
      id,
      parentId,
    };
    if (record.type === "message") record.role = kind === 7 ? "assistant" : "user";
    records.push(record);
  }
  return records;
}

/** What a table tells of its records, parents and ids. */
function seen(table: RecordTable, records: StoredEntryRecord[]) {
  return {
    records: table.records(),
    parents: [...table.parentIndex()],
    repeated: table.repeatedIds(),
    found: records.map((r) => (r.id === undefined ? -2 : table.indexOfId(r.id))),
  };
}

describe("RecordTable as objects and as columns", () => {
  it.each([false, true])(
    "gives the same records, parents and lookups either way, pushed in batches, truncated and adopted (Map index: %s)",
    (mapIndex) => {
      for (const seed of [1, 2, 3]) {
        const records = hostileRecords(3000, seed);
        const objects = new RecordTable();
        const columns = new RecordTable();
        columns.useColumns(true);
        expect([objects.isColumnar, columns.isColumnar]).toEqual([false, true]);
        if (mapIndex) {
          objects.useMapIndex();
          columns.useMapIndex();
        }
        records.forEach((r, i) => {
          objects.push(r, i * 10, 9, i + 2);
          columns.push({ ...r }, i * 10, 9, i + 2);
          if (i % 700 === 699) expect([...columns.parentIndex()]).toEqual([...objects.parentIndex()]);
        });
        expect(seen(columns, records)).toEqual(seen(objects, records));
        expect(columns.records()).toEqual(records.map((r) => ({ ...r, role: r.role })));
        const sidecar = { records: objects.records(), columns: objects.columns() };
        objects.truncate(1700);
        columns.truncate(1700);
        expect(seen(columns, records)).toEqual(seen(objects, records));
        expect(columns.size).toBe(1700);
        columns.adopt(sidecar.records, sidecar.columns);
        const adopted = new RecordTable();
        adopted.adopt(sidecar.records, sidecar.columns);
        expect(seen(columns, records)).toEqual(seen(adopted, records));
        expect(columns.size).toBe(3000);
      }
    },
  );

  it("switches between objects and columns only while empty", () => {
    const table = new RecordTable();
    table.push({ type: "message", id: "a", parentId: null }, 0, 1, 2);
    table.useColumns(true);
    expect(table.isColumnar).toBe(false);
    table.clear();
    table.useColumns(true);
    expect(table.isColumnar).toBe(true);
    table.push({ type: "message", id: "a", parentId: null }, 0, 1, 2);
    expect(table.records()).toEqual([{ type: "message", id: "a", parentId: null, role: undefined }]);
  });
});
