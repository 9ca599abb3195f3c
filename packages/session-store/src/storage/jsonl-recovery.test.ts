import { appendFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chain, header, jsonl, message, tempDir } from "./__fixtures__/storage-fixtures";
import { createJsonlStorage } from "./create-jsonl-storage";
import { createMemoryStorage } from "./create-memory-storage";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

describe("torn last line", () => {
  it("is quarantined and reported, the next append lands on a clean line, no earlier entry is lost", () => {
    const path = tmp.file();
    const entries = chain(5);
    const torn =
      '{"type":"message","id":"e5","parentId":"e4","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"us';
    writeFileSync(path, jsonl(header(), ...entries) + torn);

    const storage = createJsonlStorage(path);
    const { records, issues } = storage.load();
    expect(records.map((r) => r.id)).toEqual(["e0", "e1", "e2", "e3", "e4"]);
    expect(issues).toHaveLength(1);
    const [issue] = issues;
    expect(issue?.code).toBe("SESSION_TAIL_TORN");
    expect(issue?.line).toBe(7);
    expect(issue?.message).toContain(`${path}:7`);
    expect(readFileSync(issue?.quarantinePath as string, "utf8")).toBe(torn);
    expect(readFileSync(path, "utf8")).toBe(jsonl(header(), ...entries));

    storage.append([message("e5", "e4")]);
    storage.close();
    expect(readFileSync(path, "utf8")).toBe(jsonl(header(), ...entries, message("e5", "e4")));

    const again = createJsonlStorage(path, { readOnly: true });
    const reloaded = again.load();
    expect(reloaded.issues).toEqual([]);
    expect(reloaded.records.map((r) => r.id)).toEqual(["e0", "e1", "e2", "e3", "e4", "e5"]);
    again.close();
  });

  it("keeps a complete last line that only lacks its newline, and adds the newline", () => {
    const path = tmp.file();
    writeFileSync(path, jsonl(header(), message("a", null)) + JSON.stringify(message("b", "a")));
    const storage = createJsonlStorage(path);
    const { records, issues } = storage.load();
    expect(issues).toEqual([]);
    expect(records.map((r) => r.id)).toEqual(["a", "b"]);
    expect(storage.stats().tailRepaired).toBe(true);
    storage.append([message("c", "b")]);
    storage.close();
    expect(readFileSync(path, "utf8")).toBe(
      jsonl(header(), message("a", null), message("b", "a"), message("c", "b")),
    );
  });

  it("keeps a complete unterminated last line in read-only mode without ever counting it twice", () => {
    const path = tmp.file();
    writeFileSync(path, jsonl(header(), message("a", null)) + JSON.stringify(message("b", "a")));
    for (let round = 0; round < 2; round++) {
      const storage = createJsonlStorage(path, { readOnly: true, sidecarMinBytes: 0 });
      expect(storage.load().records.map((r) => r.id)).toEqual(["a", "b"]);
      storage.close();
    }
  });

  it("is only reported, not moved, by a read-only storage", () => {
    const path = tmp.file();
    const text = `${jsonl(header(), message("a", null))}{"type":"mess`;
    writeFileSync(path, text);
    const storage = createJsonlStorage(path, { readOnly: true });
    const { records, issues } = storage.load();
    storage.close();
    expect(records.map((r) => r.id)).toEqual(["a"]);
    expect(issues.map((i) => [i.code, i.line, i.quarantinePath])).toEqual([
      ["SESSION_TAIL_TORN", 3, undefined],
    ]);
    expect(readFileSync(path, "utf8")).toBe(text);
    expect(readdirSync(tmp.dir).filter((n) => n.includes(".torn-"))).toEqual([]);
  });

  it("turns a file that is only a torn header into an empty new session, the bytes kept aside", () => {
    const path = tmp.file();
    writeFileSync(path, '{"type":"session","ver');
    const storage = createJsonlStorage(path);
    const { header: h, issues } = storage.load();
    expect(h).toBeUndefined();
    expect(readFileSync(issues[0]?.quarantinePath as string, "utf8")).toBe('{"type":"session","ver');
    storage.append([header(), message("a", null)]);
    storage.close();
    expect(readFileSync(path, "utf8")).toBe(jsonl(header(), message("a", null)));
  });
});

describe("files that are not sessions", () => {
  it.each([
    ["a one-line note without a final newline", "remember to buy milk"],
    ["a note with lines", "line one\nline two"],
    ["a JSON object that is not a header", '{"name":"package","version":"1.0.0"}'],
    ["only blank lines", "\n  \n"],
  ])("refuses %s, leaves every byte in place and writes nothing beside it", (_, text) => {
    for (const readOnly of [false, true]) {
      const path = tmp.file();
      writeFileSync(path, text);
      const storage = createJsonlStorage(path, { readOnly });
      let code: string | undefined;
      try {
        storage.load();
      } catch (error) {
        code = (error as { code?: string }).code;
        expect((error as Error).message).toContain(path);
        expect((error as Error).message).toContain("not modified");
      }
      expect(code).toBe("SESSION_HEADER_INVALID");
      expect(readFileSync(path, "utf8")).toBe(text);
      expect(readdirSync(tmp.dir)).toEqual(["session.jsonl"]);
    }
  });
});

describe("byte order mark", () => {
  it("accepts a UTF-8 BOM before the header, with or without entries and a final newline", () => {
    const bom = "\uFEFF";
    for (const text of [
      bom + jsonl(header(), message("a", null)),
      bom + JSON.stringify(header()),
      bom + jsonl(header()),
    ]) {
      const path = tmp.file();
      writeFileSync(path, text);
      const reader = createJsonlStorage(path, { readOnly: true });
      const loaded = reader.load();
      reader.close();
      expect(loaded.header).toEqual(header());
      expect(loaded.issues).toEqual([]);
      const writer = createJsonlStorage(path);
      expect(writer.load().header).toEqual(header());
      writer.append([message("z", null)]);
      writer.close();
      expect(readFileSync(path, "utf8").startsWith(bom)).toBe(true);
      expect(readFileSync(path, "utf8").endsWith(jsonl(message("z", null)))).toBe(true);
    }
  });

  it("is accepted by the in-memory storage too", () => {
    for (const content of [
      `\uFEFF${jsonl(header(), message("a", null))}`,
      `\uFEFF${JSON.stringify(header())}`,
    ]) {
      const storage = createMemoryStorage({ content });
      const loaded = storage.load();
      expect(loaded.header).toEqual(header());
      expect(loaded.issues).toEqual([]);
    }
  });
});

describe("corrupt line in the middle", () => {
  it("is reported with its line number, stays byte-for-byte in the file, and later lines still load", () => {
    const path = tmp.file();
    const bad =
      '{"type":"message","id":"x1","parentId":"a","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user"';
    const notAnEntry = "[1,2,3]";
    const withNul =
      '{"type":"message","id":"n1","parentId":"a","timestamp":"t","message":{"role":"user","content":"\u0000"}}';
    const text = `${jsonl(header(), message("a", null))}${bad}\n${jsonl(message("b", "a"))}${notAnEntry}\n\n${withNul}\n${jsonl(message("c", "b"))}`;
    writeFileSync(path, text);

    const storage = createJsonlStorage(path);
    const { records, issues } = storage.load();
    expect(records.map((r) => r.id)).toEqual(["a", "b", "c"]);
    expect(issues.map((i) => [i.code, i.line])).toEqual([
      ["SESSION_LINE_CORRUPT", 3],
      ["SESSION_LINE_CORRUPT", 5],
      ["SESSION_LINE_CORRUPT", 7],
    ]);
    for (const issue of issues) expect(issue.message).toContain(`${path}:${issue.line}`);
    expect(
      text.slice(issues[0]?.byteOffset, (issues[0]?.byteOffset ?? 0) + (issues[0]?.byteLength ?? 0)),
    ).toBe(bad);
    expect(storage.lineOf(2)).toBe(8);
    expect(storage.readEntry(2)).toEqual(message("c", "b"));

    storage.append([message("d", "c")]);
    storage.close();
    expect(readFileSync(path, "utf8")).toBe(text + jsonl(message("d", "c")));
  });

  it("is still reported on every load, also when the rest comes from the sidecar index", () => {
    const path = tmp.file();
    writeFileSync(path, `${jsonl(header(), message("a", null))}garbage\n${jsonl(message("b", "a"))}`);
    const first = createJsonlStorage(path, { sidecarIndex: true, sidecarMinBytes: 0 });
    expect(first.load().issues.map((i) => i.line)).toEqual([3]);
    first.close();
    appendFileSync(path, jsonl(message("c", "b")));
    const second = createJsonlStorage(path, { sidecarIndex: true, sidecarMinBytes: 0 });
    const loaded = second.load();
    expect(second.stats().indexUsed).toBe(true);
    expect(loaded.issues.map((i) => [i.code, i.line])).toEqual([["SESSION_LINE_CORRUPT", 3]]);
    expect(loaded.records.map((r) => r.id)).toEqual(["a", "b", "c"]);
    second.close();
  });

  it("reports lines before the header and accepts the first header that parses (as pi does)", () => {
    const path = tmp.file();
    writeFileSync(path, `not json\n${jsonl(header(), message("a", null))}`);
    const storage = createJsonlStorage(path, { readOnly: true });
    const { header: h, records, issues } = storage.load();
    storage.close();
    expect(h).toEqual(header());
    expect(records.map((r) => r.id)).toEqual(["a"]);
    expect(issues.map((i) => i.line)).toEqual([1]);
  });
});
