import { describe, expect, it } from "vitest";
import { chain, header, jsonl, message } from "./__fixtures__/storage-fixtures";
import { createMemoryStorage } from "./create-memory-storage";
import { SessionStorageError } from "./session-storage-error";

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return SessionStorageError.isInstance(error) ? error.code : String(error);
  }
  return undefined;
}

describe("createMemoryStorage", () => {
  it("starts empty, needs a header first, and reads back what was appended", () => {
    const storage = createMemoryStorage();
    expect(storage.load()).toEqual({
      header: undefined,
      records: [],
      issues: [],
      parentIndex: new Int32Array(0),
      repeatedIds: false,
    });
    expect(codeOf(() => storage.append([message("a", null)]))).toBe("SESSION_HEADER_INVALID");
    storage.append([header(), ...chain(3)]);
    expect(storage.readEntry(2)).toEqual(chain(3)[2]);
    expect(storage.lineOf(2)).toBe(4);
    expect(storage.toJsonl()).toBe(jsonl(header(), ...chain(3)));
    expect(storage.kind).toBe("memory");
    expect(storage.path).toBeUndefined();
  });

  it("stores the JSON line, so mutating an appended object does not change the stored entry", () => {
    const storage = createMemoryStorage();
    storage.load();
    const entry = message("a", null);
    storage.append([header(), entry]);
    (entry.message as { role: string }).role = "assistant";
    entry.extra = () => 1;
    expect(storage.readEntry(0)).toEqual(message("a", null));
  });

  it("parses initial JSONL text like a file: corrupt lines and a torn tail are reported and kept", () => {
    const content = `${jsonl(header(), message("a", null))}garbage\n${jsonl(message("b", "a"))}{"type":"mes`;
    const storage = createMemoryStorage({ name: "t", content });
    const { records, issues } = storage.load();
    expect(records.map((r) => r.id)).toEqual(["a", "b"]);
    expect(issues.map((i) => [i.code, i.line])).toEqual([
      ["SESSION_LINE_CORRUPT", 3],
      ["SESSION_TAIL_TORN", 5],
    ]);
    expect(issues[0]?.message).toContain("memory:t:3");
    expect(storage.readEntry(1)).toEqual(message("b", "a"));
    expect(storage.toJsonl()).toBe(`${content}\n`);
  });

  it("accepts initial objects, and rewrite replaces everything", () => {
    const storage = createMemoryStorage({ header: header(), entries: chain(2) });
    expect(storage.load().records.map((r) => r.id)).toEqual(["e0", "e1"]);
    expect(storage.rewrite(header("s2"), [message("x", null)])).toEqual({});
    expect(storage.readEntry(0)).toEqual(message("x", null));
    expect(codeOf(() => storage.readEntry(1))).toBe("SESSION_ENTRY_OUT_OF_RANGE");
    expect(storage.toJsonl()).toBe(jsonl(header("s2"), message("x", null)));
    storage.close();
    expect(codeOf(() => storage.readEntry(0))).toBe("SESSION_CLOSED");
  });

  it("rejects a first line that is not a header", () => {
    expect(codeOf(() => createMemoryStorage({ content: jsonl(message("a", null)) }).load())).toBe(
      "SESSION_HEADER_INVALID",
    );
  });

  it("reports a line that passed the fast scan but is broken in between as SESSION_LINE_CORRUPT", () => {
    const broken = jsonl(header(), ...chain(2)).replace('"role":"user",', '"role":"user",\u0001');
    const storage = createMemoryStorage({ content: broken });
    expect(storage.load().records).toHaveLength(2);
    expect(codeOf(() => storage.readEntry(0))).toBe("SESSION_LINE_CORRUPT");
    expect(storage.readEntry(1)).toEqual(chain(2)[1]);
  });

  it("reports a last line without newline that parses but is no entry", () => {
    const storage = createMemoryStorage({ content: `${jsonl(header(), ...chain(1))}{"type":{}}` });
    const { records, issues } = storage.load();
    expect(records).toHaveLength(1);
    expect(issues.map((i) => [i.code, i.line])).toEqual([["SESSION_LINE_CORRUPT", 3]]);
  });
});
