import { closeSync, openSync, writeFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { header, tempDir } from "../__fixtures__/storage-fixtures";
import { ENTRY_LINE, ENTRY_LINE_FLAGS } from "./entry-head-slots";
import { type PreviousId, recordFromEntry, scanEntryRecord } from "./extract-entry-record";
import { IdIndex } from "./id-index";
import { LineScanner } from "./line-scanner";
import { matchEntryRecord } from "./match-entry-record";
import { PARENT_ROOT, RecordTable } from "./record-table";
import { scanSessionFile } from "./scan-session-file";
import { nodeStorageFs } from "./storage-fs";
import { WasmEntryScanner } from "./wasm-entry-scanner";

const big = "x".repeat(300_000);

/** Lines that exercise every branch of the fast path and its fallback. */
const TRICKY_LINES: string[] = [
  '{"type":"message","id":"a1","parentId":null,"timestamp":"t","message":{"role":"user","content":"hi"}}',
  '{"type":"message","id":"a2","parentId":"a1","timestamp":"t","message":{"role":"assistant","content":[]}}',
  // escapes inside the extracted fields
  '{"type":"message","id":"a\\"3","parentId":"a\\\\1","timestamp":"t","message":{"role":"user"}}',
  '{"type":"mess\\u0061ge","id":"\\u00e9t\\u00e9","parentId":null,"timestamp":"t","message":{"role":"us\\u0065r"}}',
  '{"type":"message","id":"a4","parentId":"a3","timestamp":"t\\n","message":{"role":"toolResult"}}',
  // non-ASCII raw UTF-8
  '{"type":"message","id":"été","parentId":"日本","timestamp":"t","message":{"role":"user"}}',
  '{"type":"label","id":"l1","parentId":"ü","timestamp":"t","targetId":"a1","label":"naïve"}',
  // other key orders
  '{"type":"custom_message","customType":"note","content":"x","display":true,"id":"c1","parentId":"a1","timestamp":"t"}',
  '{"id":"k1","type":"message","parentId":"a1","timestamp":"t","message":{"role":"user"}}',
  '{"type":"message","id":"k2","parentId":"a1","timestamp":"t","message":{"content":"x","role":"assistant"}}',
  '{"type":"message","id":"k3","parentId":"a1","message":{"role":"user"},"timestamp":"t"}',
  '{"type":"message","parentId":"a1","id":"k4","timestamp":"t","message":{"role":"user"}}',
  // whitespace, CR
  '{ "type": "message", "id": "w1", "parentId": null, "timestamp": "t", "message": { "role": "user" } }',
  '{"type":"compaction","id":"w2","parentId":"a1","timestamp":"t","summary":"s","firstKeptEntryId":"a1"}\r',
  // missing / odd values
  '{"type":"message","timestamp":"t","message":{"role":"user","content":"v1 entry without ids"}}',
  '{"type":"message","id":"o1","parentId":7,"timestamp":"t","message":{"role":"user"}}',
  '{"type":"message","id":"o2","parentId":null,"timestamp":"t","message":{"role":42}}',
  '{"type":"message","id":"o3","parentId":null,"timestamp":"t","message":null}',
  '{"type":"message","id":"o4","parentId":null,"timestamp":"t","message":{"content":[{"role":"user"}]}}',
  '{"type":"message","id":"o5","parentId":null}',
  '{"type":"model_change","id":"o6","parentId":null}',
  '{"type":"branch_summary","id":"o7","parentId":"a1","timestamp":"t","fromId":"root","summary":"","message":{"role":"user"}}',
  // unknown types and extra fields
  '{"type":"future_type_v9","id":"u1","parentId":"a1","timestamp":"t","payload":{"nested":{"type":"message"}}}',
  // long values (13 characters and more are copied out of the line), ids longer than the first head
  '{"type":"message","id":"0197920084fc6c-7000-8000-00b349c88706","parentId":"0197920084fc6c-7000-8000-00b349c88705","timestamp":"2025-06-01T09:00:19.374Z","message":{"role":"bashExecution","command":"ls"}}',
  '{"type":"message","id":"a5","parentId":"a4","timestamp":"t","message":{"role":"compactionSummary","summary":"s"}}',
  '{"type":"thinking_level_change","id":"t1","parentId":"a5","timestamp":"t","thinkingLevel":"high"}',
  `{"type":"message","id":"${"i".repeat(300)}","parentId":"${"p".repeat(300)}","timestamp":"t","message":{"role":"user"}}`,
  `{"type":"message","id":"${"i".repeat(5000)}","parentId":null,"timestamp":"t","message":{"role":"user"}}`,
  // huge line (bigger than a small scan chunk)
  `{"type":"message","id":"h1","parentId":"a1","timestamp":"t","message":{"role":"toolResult","content":[{"type":"text","text":"${big}"}]}}`,
];

/**
 * The record `WasmEntryScanner.scanLines` finds for `buf[start, end)` followed by a newline, decoded
 * as `scanEntryRecord` returns it (`undefined`: the line did not match).
 */
function wasmExtract(buf: Buffer, start: number, end: number) {
  const scanner = wasmScanner(end - start + 1);
  const chunk = scanner.chunk();
  buf.copy(chunk, 0, start, end);
  chunk[end - start] = 0x0a;
  expect(scanner.scanLines(0, end - start + 1)).toBe(1);
  expect(scanner.resumeAt()).toBe(end - start + 1);
  return decodeRecord(scanner, chunk, 0, undefined);
}

/** Record `r` of the last `scanLines` call as `scanEntryRecord` gives it; `previousId`: for a chained parent. */
function decodeRecord(scanner: WasmEntryScanner, chunk: Buffer, r: number, previousId: string | undefined) {
  const words = scanner.words;
  const at = scanner.recordsAt + r * ENTRY_LINE.words;
  const word = (name: keyof typeof ENTRY_LINE) => (words[at + ENTRY_LINE[name]] as number) - scanner.base;
  if (((words[at + ENTRY_LINE.flags] as number) & ENTRY_LINE_FLAGS.matched) === 0) return undefined;
  const text = (from: number, to: number) => chunk.toString("latin1", from, to);
  const typeEnd = word("typeEnd");
  const parentStart = words[at + ENTRY_LINE.parentStart] as number;
  const same = ((words[at + ENTRY_LINE.flags] as number) & ENTRY_LINE_FLAGS.samePrevious) !== 0;
  return {
    id: text(typeEnd + 8, word("idEnd")),
    parentId:
      same && previousId !== undefined
        ? previousId
        : parentStart === -1
          ? null
          : text(word("parentStart"), word("parentEnd")),
    type: text(word("typeStart"), typeEnd),
    role:
      (words[at + ENTRY_LINE.roleStart] as number) < 0 ? undefined : text(word("roleStart"), word("roleEnd")),
  };
}

function wasmScanner(capacity: number): WasmEntryScanner {
  const scanner = WasmEntryScanner.create(capacity);
  if (scanner === undefined) throw new Error("WebAssembly is available under Node: create must succeed");
  return scanner;
}

function newPrevious(): PreviousId {
  return { buf: undefined, start: 0, end: 0, id: undefined, hash: 0 };
}

describe.each([
  ["scanEntryRecord (byte loop)", scanEntryRecord],
  ["matchEntryRecord (regular expression)", matchEntryRecord],
  ["WasmEntryScanner (WebAssembly)", wasmExtract],
])("%s", (_name, extract) => {
  it("returns either nothing (fallback) or exactly what JSON.parse gives, for every tricky line", () => {
    let fast = 0;
    for (const line of TRICKY_LINES) {
      const buf = Buffer.from(line, "utf8");
      let end = buf.length;
      while (end > 0 && (buf[end - 1] === 0x0d || buf[end - 1] === 0x20)) end--;
      const record = extract(buf, 0, end);
      if (record) {
        fast++;
        expect(record, line.slice(0, 80)).toEqual(recordFromEntry(JSON.parse(line)));
      }
    }
    // The pi-shaped lines take the fast path; the others fall back.
    expect(fast).toBeGreaterThanOrEqual(10);
  });

  it("agrees with the other fast path (the regular expression leaves ids of thousands of characters to JSON.parse)", () => {
    for (const line of TRICKY_LINES) {
      const buf = Buffer.from(line, "utf8");
      let end = buf.length;
      while (end > 0 && (buf[end - 1] === 0x0d || buf[end - 1] === 0x20)) end--;
      const record = extract(buf, 0, end);
      if (record !== undefined || end < 4096) {
        expect(record, line.slice(0, 80)).toEqual(scanEntryRecord(buf, 0, end));
      }
    }
  });

  it("refuses lines whose extracted strings would need unescaping", () => {
    const line = Buffer.from(
      '{"type":"message","id":"a\\"3","parentId":null,"timestamp":"t","message":{"role":"user"}}',
    );
    expect(extract(line, 0, line.length)).toBeUndefined();
  });

  it("refuses a line that does not end with a closing brace (torn after a valid prefix)", () => {
    const line = Buffer.from(
      '{"type":"message","id":"a1","parentId":null,"timestamp":"t","message":{"role":"user","con',
    );
    expect(extract(line, 0, line.length)).toBeUndefined();
  });
});

describe("WasmEntryScanner", () => {
  it("records every line of a chunk in one call: each id hashed as IdIndex.hash does, a parent equal to the previous matched id flagged", () => {
    const text = `${TRICKY_LINES.join("\n")}\n`;
    const scanner = wasmScanner(Buffer.byteLength(text));
    const chunk = scanner.chunk();
    chunk.write(text);
    expect(scanner.scanLines(0, Buffer.byteLength(text))).toBe(TRICKY_LINES.length);
    expect(scanner.resumeAt()).toBe(Buffer.byteLength(text));
    const reference = newPrevious();
    let start = 0;
    let chained = 0;
    let previousId: string | undefined;
    for (const [r, line] of TRICKY_LINES.entries()) {
      const length = Buffer.byteLength(line);
      let end = start + length;
      while (end > start && (chunk[end - 1] === 0x0d || chunk[end - 1] === 0x20)) end--;
      const at = scanner.recordsAt + r * ENTRY_LINE.words;
      expect(scanner.words[at + ENTRY_LINE.start]).toBe(start + scanner.base);
      expect(scanner.words[at + ENTRY_LINE.newline]).toBe(start + length + scanner.base);
      expect(scanner.words[at + ENTRY_LINE.end]).toBe(end + scanner.base);
      const record = decodeRecord(scanner, chunk, r, previousId);
      expect(record, line.slice(0, 80)).toEqual(scanEntryRecord(chunk, start, end, reference));
      if (record !== undefined) {
        expect((scanner.words[at + ENTRY_LINE.hash] as number) >>> 0).toBe(IdIndex.hash(record.id));
        if (((scanner.words[at + ENTRY_LINE.flags] as number) & ENTRY_LINE_FLAGS.samePrevious) !== 0) {
          expect(scanner.words[at + ENTRY_LINE.previousLine]).toBe(r - 1);
          chained++;
        }
        previousId = record.id;
      } else previousId = undefined;
      start += length + 1;
    }
    expect(chained).toBeGreaterThan(0);
  });

  it("stops at the last newline, flags a NUL byte, keeps the previous line across a blank one, and resumes where the records ran out", () => {
    const lines = [
      '{"type":"message","id":"a1","parentId":null,"timestamp":"t","message":{"role":"user"}}',
      "   ",
      '{"type":"message","id":"a2","parentId":"a1","timestamp":"t","message":{"role":"assistant"}}',
      '{"type":"message","id":"a3","parentId":"a2","timestamp":"t","message":{"role":"user","x":"\u0000"}}',
      '{"type":"message","id":"a4","parentId":"a3","timestamp":"t","message":{"role":"user"}}',
      '{"type":"message","id":"a5","parentId":"a4"',
    ];
    const text = lines.join("\n");
    const scanner = wasmScanner(Buffer.byteLength(text));
    const chunk = scanner.chunk();
    chunk.write(text);
    expect(scanner.scanLines(0, Buffer.byteLength(text))).toBe(5);
    expect(scanner.resumeAt()).toBe(text.lastIndexOf("\n") + 1);
    const flags = (r: number) =>
      scanner.words[scanner.recordsAt + r * ENTRY_LINE.words + ENTRY_LINE.flags] as number;
    const previousLine = (r: number) =>
      scanner.words[scanner.recordsAt + r * ENTRY_LINE.words + ENTRY_LINE.previousLine] as number;
    const { matched, nul, samePrevious } = ENTRY_LINE_FLAGS;
    expect([0, 1, 2, 3, 4].map(flags)).toEqual([matched, 0, matched | samePrevious, nul, matched]);
    // The blank line keeps line 0 as the previous one; the line with a NUL byte forgets line 2.
    expect(previousLine(2)).toBe(0);
    expect(previousLine(4)).toBe(-1);
  });

  it("leaves a large scan to the JavaScript loop where WebAssembly is missing (node --jitless), same records", () => {
    const text = `${JSON.stringify(header())}\n${TRICKY_LINES.slice(0, -1).join("\n")}\n`;
    const length = Buffer.byteLength(text);
    const scan = () => {
      const table = new RecordTable();
      const scanner = new LineScanner("large.jsonl", table, { small: false });
      const chunk = scanner.chunkBuffer(length);
      chunk.write(text);
      scanner.scanChunk(chunk, length, 0);
      return table.records();
    };
    const withWasm = scan();
    expect(withWasm.length).toBe(TRICKY_LINES.length - 1);
    vi.stubGlobal("WebAssembly", undefined);
    try {
      expect(WasmEntryScanner.create(1024)).toBeUndefined();
      expect(scan()).toEqual(withWasm);
    } finally {
      vi.unstubAllGlobals();
    }
    expect(WasmEntryScanner.create(1024)).toBeDefined();
  });

  it("scans a chunk of more lines than one call records (short lines): same records, lines and parents as JSON.parse gives", () => {
    const lines: string[] = [];
    for (let i = 0; i < 9000; i++) {
      const parent = i === 0 ? null : i % 1000 === 0 ? `l${i - 7}` : `l${i - 1}`;
      lines.push(
        JSON.stringify({ type: "label", id: `l${i}`, parentId: parent }).replace(/}$/, i % 3 ? "}" : "} "),
      );
      if (i % 2500 === 0) lines.push("");
    }
    const text = `${JSON.stringify(header())}\n${lines.join("\n")}\n`;
    const length = Buffer.byteLength(text);
    for (const columns of [false, true]) {
      const table = new RecordTable();
      table.useColumns(columns);
      const scanner = new LineScanner("short.jsonl", table, { small: false });
      const chunk = scanner.chunkBuffer(length);
      chunk.write(text);
      expect(scanner.scanChunk(chunk, length, 0)).toBe(length);
      const entries = lines.filter((line) => line !== "");
      expect(table.records()).toEqual(entries.map((line) => recordFromEntry(JSON.parse(line))));
      expect(scanner.counters.fastPathLines).toBe(entries.length);
      expect(scanner.lineNo).toBe(lines.length + 1);
      const parents = table.parentIndex();
      const indexOf = new Map(entries.map((line, i) => [(JSON.parse(line) as { id: string }).id, i]));
      const expected = entries.map((line) => {
        const parentId = (JSON.parse(line) as { parentId: string | null }).parentId;
        return parentId === null ? PARENT_ROOT : indexOf.get(parentId);
      });
      expect([...parents]).toEqual(expected);
      expect(table.lineOf(entries.length - 1)).toBe(lines.length + 1);
    }
  });

  it("gives the load scan of a large file the records JSON.parse gives", () => {
    const lines = TRICKY_LINES.slice(0, -1); // all but the line longer than the chunk
    const text = `${JSON.stringify(header())}\n${lines.join("\n")}\n`;
    const table = new RecordTable();
    const scanner = new LineScanner("large.jsonl", table, { small: false });
    const chunk = scanner.chunkBuffer(Buffer.byteLength(text));
    chunk.write(text);
    expect(scanner.scanChunk(chunk, Buffer.byteLength(text), 0)).toBe(Buffer.byteLength(text));
    expect(table.records()).toEqual(lines.map((line) => recordFromEntry(JSON.parse(line))));
    expect(scanner.counters.fastPathLines).toBeGreaterThanOrEqual(10);
  });
});

describe("the load-time scan", () => {
  it("yields the same records as JSON.parse of every line, also with a chunk smaller than a line", () => {
    const tmp = tempDir();
    try {
      const path = tmp.file();
      writeFileSync(path, `${JSON.stringify(header())}\n${TRICKY_LINES.join("\n")}\n`);
      const expected = TRICKY_LINES.map((line) => recordFromEntry(JSON.parse(line)));
      for (const [chunk, small] of [
        [64, false],
        [4096, false],
        [8 * 1024 * 1024, false],
        [64, true],
        [8 * 1024 * 1024, true],
      ] as const) {
        const table = new RecordTable();
        const scanner = new LineScanner(path, table, { small });
        const fd = openSync(path, "r");
        try {
          const size = nodeStorageFs.fstatSync(fd).size;
          const result = scanSessionFile(nodeStorageFs, fd, scanner, 0, size, chunk);
          expect(result.tail).toBeUndefined();
        } finally {
          closeSync(fd);
        }
        expect(scanner.issues).toEqual([]);
        expect(table.records()).toEqual(expected);
        expect(table.lineOf(0)).toBe(2);
        expect(table.lineOf(TRICKY_LINES.length - 1)).toBe(TRICKY_LINES.length + 1);
      }
    } finally {
      tmp.cleanup();
    }
  });

  it("agrees with JSON.parse on randomly generated entries with random key orders and strings", () => {
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const alphabet = ["a", "Z", "0", '"', "\\", "\n", "é", "日", "😀", " ", "/", "\u0001", "}"];
    const str = () =>
      Array.from(
        { length: 1 + Math.floor(rand() * 10) },
        () => alphabet[Math.floor(rand() * alphabet.length)],
      ).join("");
    const lines: string[] = [];
    for (let i = 0; i < 500; i++) {
      const fields: [string, unknown][] = [
        ["type", rand() < 0.7 ? "message" : str()],
        ["id", rand() < 0.8 ? `id${i}` : str()],
        ["parentId", rand() < 0.2 ? null : rand() < 0.8 ? `id${i - 1}` : str()],
        ["timestamp", rand() < 0.9 ? "2025-01-01T00:00:00.000Z" : str()],
        ["message", { role: rand() < 0.8 ? "user" : str(), content: str() }],
      ];
      if (rand() < 0.3) fields.sort(() => rand() - 0.5);
      lines.push(JSON.stringify(Object.fromEntries(fields)));
    }
    const buf = Buffer.from(`${JSON.stringify(header())}\n${lines.join("\n")}\n`);
    for (const [small, wasm] of [
      [false, false],
      [false, true],
      [true, false],
    ] as const) {
      const table = new RecordTable();
      const scanner = new LineScanner("random.jsonl", table, { small });
      const chunk = wasm ? scanner.chunkBuffer(buf.length) : buf;
      if (wasm) buf.copy(chunk);
      expect(scanner.scanChunk(chunk, buf.length, 0)).toBe(buf.length);
      expect(scanner.issues).toEqual([]);
      expect(table.records()).toEqual(lines.map((line) => recordFromEntry(JSON.parse(line))));
      expect(scanner.counters.fastPathLines).toBeGreaterThan(100);
      expect(scanner.counters.parsedLines).toBeGreaterThan(50);
    }
  });
});
