import { describe, expect, it } from "vitest";
import type { SessionEntry } from "../session-entry";
import { CodedStrings } from "../storage/internal/coded-strings";
import { loadedColumnsOf } from "../storage/internal/loaded-records";
import { RecordTable } from "../storage/internal/record-table";
import { EntryTable } from "./entry-table";
import { RecordArray, type RecordColumns } from "./record-columns";

const records = [
  { id: "a", parentId: null, type: "message", role: "user" },
  { id: "b", parentId: "a", type: "model_change" },
  { id: "c", parentId: "b", type: "message", role: "assistant" },
];

const appended = {
  type: "label",
  id: "d",
  parentId: "c",
  timestamp: "t",
  targetId: "a",
  label: "x",
} as unknown as SessionEntry;

/** Records as columns that know their types, and fail any read of one record's type. */
function columnsKnowing(types: readonly string[]): RecordColumns {
  const array = new RecordArray(records);
  return {
    size: array.size,
    idOf: (index) => array.idOf(index),
    hasId: (index) => array.hasId(index),
    parentIdOf: (index) => array.parentIdOf(index),
    hasParentId: (index) => array.hasParentId(index),
    typeOf: () => {
      throw new Error("a record's type was read");
    },
    roleOf: (index) => array.roleOf(index),
    knownTypes: () => types,
  };
}

describe("EntryTable.mayHaveType", () => {
  it("reads every record's type when the backend keeps no list of them, and counts appended entries", () => {
    const table = new EntryTable(
      new RecordArray(records),
      () => ({}),
      () => {},
    );
    expect(["message", "model_change", "label", "compaction"].map((type) => table.mayHaveType(type))).toEqual(
      [true, true, false, false],
    );
    table.push(appended);
    expect(table.mayHaveType("label")).toBe(true);
  });

  it("takes the loaded records' types from the backend's list when it keeps one, without reading each", () => {
    const table = new EntryTable(
      columnsKnowing(["message", "model_change"]),
      () => ({}),
      () => {},
    );
    table.push(appended);
    expect(["message", "model_change", "label", "compaction"].map((type) => table.mayHaveType(type))).toEqual(
      [true, true, true, false],
    );
  });
});

describe("CodedStrings.knownValues", () => {
  it("holds every value a record has (a superset: a value stays known once set)", () => {
    const strings = new CodedStrings(4);
    strings.set(0, "message");
    strings.set(1, "label");
    strings.set(2, undefined);
    strings.set(1, "message");
    expect(strings.knownValues().sort()).toEqual(["label", "message"]);
    expect(strings.snapshot(1).knownValues()).toContain("message");
  });
});

describe("a table of columns' load result", () => {
  it("lists the records' types for the store (knownTypes)", () => {
    const table = new RecordTable();
    table.useColumns(true);
    records.forEach((record, index) => {
      table.push({ ...record }, index * 10, 9, index + 2);
    });
    const loaded = loadedColumnsOf(table.loadResult(undefined, []));
    expect(loaded?.knownTypes?.().slice().sort()).toEqual(["message", "model_change"]);
  });
});
