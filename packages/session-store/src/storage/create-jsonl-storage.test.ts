import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chain, header, jsonl, message, tempDir } from "./__fixtures__/storage-fixtures";
import { createJsonlStorage } from "./create-jsonl-storage";
import { SMALL_FILE_BYTES } from "./internal/open-session-file";
import { SessionStorageError } from "./session-storage-error";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return SessionStorageError.isInstance(error) ? error.code : `not an ArborError: ${String(error)}`;
  }
  return undefined;
}

describe("createJsonlStorage", () => {
  it("creates the file on the first append, header first, one line per entry", () => {
    const path = tmp.file("sub/dir/s.jsonl");
    const storage = createJsonlStorage(path);
    expect(storage.load()).toEqual({
      header: undefined,
      records: [],
      issues: [],
      parentIndex: new Int32Array(0),
      repeatedIds: false,
    });
    expect(existsSync(path)).toBe(false);
    storage.append([header(), message("a", null)]);
    storage.append([message("b", "a", "assistant")]);
    expect(readFileSync(path, "utf8")).toBe(
      jsonl(header(), message("a", null), message("b", "a", "assistant")),
    );
    expect(storage.readEntry(1)).toEqual(message("b", "a", "assistant"));
    expect(storage.lineOf(1)).toBe(3);
    storage.close();
  });

  it("requires the header as the first appended entry of a new session and writes nothing otherwise", () => {
    const path = tmp.file();
    const storage = createJsonlStorage(path);
    storage.load();
    expect(codeOf(() => storage.append([message("a", null)]))).toBe("SESSION_HEADER_INVALID");
    expect(existsSync(path)).toBe(false);
    storage.close();
  });

  it("reloads what it wrote: header, records in file order, entries on demand", () => {
    const path = tmp.file();
    const entries = chain(20);
    const writer = createJsonlStorage(path);
    writer.load();
    writer.append([header(), ...entries]);
    writer.close();
    const reader = createJsonlStorage(path, { readOnly: true });
    const { header: h, records, issues } = reader.load();
    expect(h).toEqual(header());
    expect(issues).toEqual([]);
    expect(records.map((r) => r.id)).toEqual(entries.map((e) => e.id));
    expect(records[3]).toEqual({ id: "e3", parentId: "e2", type: "message", role: "assistant" });
    expect(reader.readEntry(7)).toEqual(entries[7]);
    reader.close();
  });

  it("rejects entries that cannot be one JSON line before writing anything", () => {
    const path = tmp.file();
    const storage = createJsonlStorage(path);
    storage.load();
    storage.append([header(), message("a", null)]);
    const before = readFileSync(path);
    const circular: Record<string, unknown> = { type: "custom", id: "c", parentId: "a" };
    circular.self = circular;
    expect(codeOf(() => storage.append([message("b", "a"), circular]))).toBe("SESSION_ENTRY_INVALID");
    expect(codeOf(() => storage.append([{ id: "x" }]))).toBe("SESSION_ENTRY_INVALID");
    // A toJSON that returns undefined would make the line the text "undefined".
    const nothing = { type: "custom", id: "n", parentId: "a", toJSON: () => undefined };
    expect(codeOf(() => storage.append([message("b", "a"), nothing]))).toBe("SESSION_ENTRY_INVALID");
    expect(readFileSync(path).equals(before)).toBe(true);
    storage.close();
  });

  it("throws SESSION_HEADER_INVALID naming file and line when the first line is not a header, without touching the file", () => {
    const path = tmp.file();
    const text = jsonl(message("a", null), message("b", "a"));
    writeFileSync(path, text);
    const storage = createJsonlStorage(path);
    let error: unknown;
    try {
      storage.load();
    } catch (e) {
      error = e;
    }
    expect(SessionStorageError.isInstance(error) && error.code).toBe("SESSION_HEADER_INVALID");
    expect((error as Error).message).toContain(`${path}:1`);
    expect(readFileSync(path, "utf8")).toBe(text);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it("treats an empty file as a new session, and a blank-only file as invalid (like pi)", () => {
    const empty = tmp.file("empty.jsonl");
    writeFileSync(empty, "");
    const a = createJsonlStorage(empty);
    expect(a.load().header).toBeUndefined();
    a.append([header()]);
    a.close();
    expect(readFileSync(empty, "utf8")).toBe(jsonl(header()));
    const blank = tmp.file("blank.jsonl");
    writeFileSync(blank, "\n\n");
    expect(codeOf(() => createJsonlStorage(blank).load())).toBe("SESSION_HEADER_INVALID");
  });

  it("gives typed errors for misuse: not loaded, loaded twice, closed, out of range, read-only, missing file", () => {
    const path = tmp.file();
    const storage = createJsonlStorage(path);
    expect(codeOf(() => storage.readEntry(0))).toBe("SESSION_NOT_LOADED");
    storage.load();
    expect(codeOf(() => storage.load())).toBe("SESSION_ALREADY_LOADED");
    storage.append([header(), message("a", null)]);
    expect(codeOf(() => storage.readEntry(1))).toBe("SESSION_ENTRY_OUT_OF_RANGE");
    storage.close();
    storage.close();
    expect(codeOf(() => storage.append([message("b", "a")]))).toBe("SESSION_CLOSED");
    const reader = createJsonlStorage(path, { readOnly: true });
    reader.load();
    expect(codeOf(() => reader.append([message("b", "a")]))).toBe("SESSION_WRITE_FAILED");
    reader.close();
    expect(codeOf(() => createJsonlStorage(tmp.file("missing.jsonl"), { readOnly: true }).load())).toBe(
      "SESSION_NOT_FOUND",
    );
  });

  it("detects a line changed behind its back when reading an entry", () => {
    const path = tmp.file();
    // Above the size whose bytes stay in memory after the load: entries are read from the file.
    const pad = {
      type: "custom",
      id: "pad",
      parentId: null,
      timestamp: "t",
      data: "x".repeat(SMALL_FILE_BYTES),
    };
    writeFileSync(path, jsonl(header(), message("aaaa", null), message("bbbb", "aaaa"), pad));
    const storage = createJsonlStorage(path, { readOnly: true });
    storage.load();
    writeFileSync(path, readFileSync(path, "utf8").replace('"id":"bbbb"', '"id":"cccc"'));
    expect(codeOf(() => storage.readEntry(1))).toBe("SESSION_FILE_CHANGED");
    expect(storage.readEntry(0)).toEqual(message("aaaa", null));
    storage.close();
  });

  it("reports a line that repeats its id key as corrupt, not as changed by another program", () => {
    const path = tmp.file();
    const line = JSON.stringify(message("bbbb", "aaaa")).replace(/}$/, ',"id":"dddd"}');
    writeFileSync(path, `${jsonl(header(), message("aaaa", null))}${line}\n`);
    const storage = createJsonlStorage(path, { readOnly: true });
    expect(storage.load().records.map((r) => r.id)).toEqual(["aaaa", "bbbb"]);
    let error: unknown;
    try {
      storage.readEntry(1);
    } catch (caught) {
      error = caught;
    }
    expect(SessionStorageError.isInstance(error) && error.code).toBe("SESSION_LINE_CORRUPT");
    expect(String((error as Error).message)).toMatch(/:3: .*repeats the key "id".*"bbbb".*"dddd"/);
    storage.close();
  });
});

describe("readEntry across read windows", () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    tmp = tempDir();
  });
  afterEach(() => tmp.cleanup());

  it("returns every entry of a file larger than the window, in any read order and after appends", () => {
    const path = tmp.file();
    const entries: Record<string, unknown>[] = [];
    for (let i = 0; i < 1500; i++) {
      entries.push(
        message(`e${i}`, i === 0 ? null : `e${i - 1}`, "user", `é${i} ${"x".repeat(((i * 7) % 4000) + 500)}`),
      );
    }
    writeFileSync(path, jsonl(header(), ...entries));
    expect(readFileSync(path).length).toBeGreaterThan(2 * 1024 * 1024);
    const storage = createJsonlStorage(path);
    storage.load();
    const downwards = [...entries.keys()].reverse();
    const order = [...downwards, ...entries.keys(), ...downwards.filter((i) => i % 7 === 0).reverse()];
    for (const i of order) expect(storage.readEntry(i)).toEqual(entries[i]);
    storage.append([message("tail", "e1499")]);
    expect(storage.readEntry(1500)).toEqual(message("tail", "e1499"));
    expect(storage.readEntry(1499)).toEqual(entries[1499]);
    storage.close();
  });
});

describe("rewrite", () => {
  it("replaces the file atomically, keeps the original as a backup, and keeps working", () => {
    const path = tmp.file();
    const original = jsonl({ ...header(), version: 2 }, message("a", null), message("b", "a"));
    writeFileSync(path, original);
    const storage = createJsonlStorage(path, { sidecarMinBytes: 0 });
    storage.load();
    const migrated = [message("a", null), { ...message("b", "a"), migrated: true }];
    const { backupPath } = storage.rewrite(header(), migrated);
    expect(backupPath).toBeDefined();
    expect(readFileSync(backupPath as string, "utf8")).toBe(original);
    expect(readFileSync(path, "utf8")).toBe(jsonl(header(), ...migrated));
    expect(storage.readEntry(1)).toEqual(migrated[1]);
    storage.append([message("c", "b")]);
    expect(storage.readEntry(2)).toEqual(message("c", "b"));
    storage.close();
    const reader = createJsonlStorage(path, { readOnly: true });
    const loaded = reader.load();
    expect(loaded.records.map((r) => r.id)).toEqual(["a", "b", "c"]);
    expect(reader.lineOf(2)).toBe(4);
    reader.close();
  });

  it("leaves the original untouched when the new content is invalid", () => {
    const path = tmp.file();
    const original = jsonl(header(), message("a", null));
    writeFileSync(path, original);
    const storage = createJsonlStorage(path);
    storage.load();
    expect(codeOf(() => storage.rewrite(header(), [{ nope: true }]))).toBe("SESSION_ENTRY_INVALID");
    expect(readFileSync(path, "utf8")).toBe(original);
    storage.close();
  });
});
