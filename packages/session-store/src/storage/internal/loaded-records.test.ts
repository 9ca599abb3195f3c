import { writeFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { header, hostileIdEntries, jsonl, tempDir } from "../__fixtures__/storage-fixtures";
import { createJsonlStorage } from "../create-jsonl-storage";
import { createMemoryStorage } from "../create-memory-storage";
import type { SessionStorage, StoredEntryRecord } from "../session-storage";
import { CodedStrings } from "./coded-strings";
import { loadedColumnsOf } from "./loaded-records";
import { PackedIds } from "./packed-ids";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

/** Ids of every form the packed column keeps: 8 ASCII characters, shorter, longer, non-ASCII, empty. */
const entries = hostileIdEntries();

function expectedRecords(): StoredEntryRecord[] {
  return entries.map((e) => ({
    id: e.id as string,
    parentId: e.parentId as string | null,
    type: e.type as string,
    role: e.type === "message" ? (e.message as { role: string }).role : undefined,
  }));
}

/** The two backends that scan text, over `entries`; `columnsFrom`: their `recordColumnsMinBytes`. */
function backends(columnsFrom: number | undefined): [string, () => SessionStorage][] {
  const options = columnsFrom === undefined ? {} : { recordColumnsMinBytes: columnsFrom };
  return [
    [
      "JSONL",
      () => {
        const path = tmp.file("s.jsonl");
        writeFileSync(path, jsonl(header(), ...entries));
        return createJsonlStorage(path, { readOnly: true, ...options });
      },
    ],
    ["memory", () => createMemoryStorage({ content: jsonl(header(), ...entries), ...options })],
  ];
}

describe("load results as columns", () => {
  it.each(backends(0))(
    "%s: the columns and the records made from them on first access give the same records",
    (_name, open) => {
      const result = open().load();
      const columns = loadedColumnsOf(result);
      expect(columns?.size).toBe(entries.length);
      const fromColumns = Array.from({ length: entries.length }, (_, i) => ({
        id: columns?.idOf(i),
        parentId: columns?.parentIdOf(i),
        type: columns?.typeOf(i),
        role: columns?.roleOf(i),
      }));
      expect(fromColumns).toEqual(expectedRecords());
      expect(entries.map((_, i) => columns?.hasParentId(i))).toEqual(entries.map((e) => !!e.parentId));
      expect(entries.map((_, i) => columns?.hasId(i))).toEqual(entries.map(() => true)); // "" is an id
      expect(result.records).toEqual(expectedRecords());
      expect(result.records).toBe(result.records); // made once, then the caller's
      // Once the caller had the array (and may have changed it), the store reads the array.
      expect(loadedColumnsOf(result)).toBeUndefined();
    },
  );

  it("a copy of a load result carries no columns (a wrapper may have changed its records)", () => {
    const options = { content: jsonl(header(), ...entries), recordColumnsMinBytes: 0 };
    const result = createMemoryStorage(options).load();
    const copy = { ...result, records: result.records.slice(1) };
    expect(loadedColumnsOf(copy)).toBeUndefined();
    expect(loadedColumnsOf(createMemoryStorage(options).load())).toBeDefined();
  });

  it.each(backends(undefined))(
    "%s: a session smaller than the columns' threshold loads as a plain array of the same records",
    (_name, open) => {
      const result = open().load();
      expect(loadedColumnsOf(result)).toBeUndefined();
      expect(Object.getOwnPropertyDescriptor(result, "records")?.value).toEqual(expectedRecords());
      expect(result.repeatedIds).toBe(true);
    },
  );

  it.each(backends(0))("%s: the columns say that ids repeat, as the array does", (_name, open) => {
    expect(open().load().repeatedIds).toBe(true);
  });
});

describe("PackedIds", () => {
  it("keeps every id as it was set and compares without strings", () => {
    const ids = new PackedIds(2);
    const values = ["a1b2c3d4", "x", "", undefined, "ünï", "123456789", "\u0000\u007f", "a1b2c3d4"];
    ids.grow(values.length);
    for (const [i, id] of values.entries()) ids.set(i, id);
    ids.size = values.length;
    expect(values.map((_, i) => ids.idOf(i))).toEqual(values);
    expect(values.map((id, i) => id !== undefined && ids.hasId(i, id))).toEqual(
      values.map((id) => id !== undefined),
    );
    expect(ids.hasId(0, "a1b2c3d5")).toBe(false);
    expect(ids.hasId(1, "x\u0000")).toBe(false);
    expect(ids.sameId(0, 7)).toBe(true);
    expect(ids.sameId(0, 1)).toBe(false);
    expect(ids.sameId(3, 3)).toBe(false); // no id is no match
    expect(values.map((_, i) => ids.hasNonEmptyId(i))).toEqual(values.map((id) => !!id));
    expect(values.map((_, i) => ids.has(i))).toEqual(values.map((id) => id !== undefined));
    const copy = ids.snapshot(3);
    ids.truncate(1);
    expect(ids.idOf(1)).toBeUndefined();
    expect([copy.idOf(0), copy.idOf(1), copy.idOf(2), copy.idOf(3)]).toEqual([
      "a1b2c3d4",
      "x",
      "",
      undefined,
    ]);
  });

  it("takes an id from its bytes", () => {
    const ids = new PackedIds(3);
    const buf = Buffer.from('"a1b2c3d4","xyz"');
    ids.setBytes(0, buf, 1, 9);
    ids.setBytes(1, buf, 12, 15);
    ids.size = 2;
    expect([ids.idOf(0), ids.idOf(1)]).toEqual(["a1b2c3d4", "xyz"]);
    expect(ids.hasId(0, "a1b2c3d4")).toBe(true);
  });
});

describe("CodedStrings", () => {
  it("keeps every value, past the 65,534 distinct values a code holds", () => {
    const n = 70_000;
    const column = new CodedStrings(16);
    column.grow(n + 2);
    for (let i = 0; i < n; i++) column.set(i, `type-${i}`);
    column.set(n, undefined);
    column.set(n + 1, "type-5");
    expect(column.get(0)).toBe("type-0");
    expect(column.get(n - 1)).toBe(`type-${n - 1}`);
    expect(column.get(n)).toBeUndefined();
    expect(column.get(n + 1)).toBe("type-5");
    const copy = column.snapshot(n);
    column.truncate(10);
    expect(column.get(n - 1)).toBeUndefined();
    expect(copy.get(n - 1)).toBe(`type-${n - 1}`);
  });
});
