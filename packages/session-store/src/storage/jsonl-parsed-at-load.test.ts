import { readFileSync, writeFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openSessionStore } from "../open-session-store";
import { chain, header, jsonl, tempDir } from "./__fixtures__/storage-fixtures";
import { createJsonlStorage } from "./create-jsonl-storage";
import { KEEP_PARSED_MAX_BYTES, LineScanner } from "./internal/line-scanner";
import { RecordTable } from "./internal/record-table";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => {
  vi.restoreAllMocks();
  tmp.cleanup();
});

/** A version-1 file as pi wrote it: no `version` in the header, entries without ids. */
function versionOneFile(path: string, count: number, padding = 0): Record<string, unknown>[] {
  const entries = Array.from({ length: count }, (_, i) => ({
    type: "message",
    timestamp: `2025-01-01T00:00:${String(i % 60).padStart(2, "0")}.000Z`,
    message: {
      role: i % 2 === 0 ? "user" : "assistant",
      content: [{ type: "text", text: `turn ${i}${"-".repeat(padding)}` }],
    },
  }));
  const { version: _version, ...v1Header } = header("s-v1");
  writeFileSync(path, jsonl(v1Header, ...entries));
  return entries;
}

/** Counts `JSON.parse` calls from now on (each line the storage parses is one call). */
function countParses(): () => number {
  const spy = vi.spyOn(JSON, "parse");
  return () => spy.mock.calls.length;
}

describe("entries parsed by the load of a file older than version 3", () => {
  it("are handed to the first read of each entry: every line is parsed once", () => {
    const path = tmp.file();
    const entries = versionOneFile(path, 50);
    const parses = countParses();
    const storage = createJsonlStorage(path);
    const loaded = storage.load();
    expect(loaded.records).toHaveLength(50);
    for (let index = 0; index < entries.length; index++) {
      expect(storage.readEntry(index)).toEqual(entries[index]);
    }
    expect(parses()).toBe(1 + entries.length); // the header, then each entry once
    storage.close();
  });

  it("are handed over once: the second read of an entry reads its line again, unaffected by the first caller", () => {
    const path = tmp.file();
    const entries = versionOneFile(path, 3);
    const storage = createJsonlStorage(path);
    storage.load();
    const first = storage.readEntry(1);
    (first as { type: string }).type = "changed by the caller";
    const parses = countParses();
    expect(storage.readEntry(1)).toEqual(entries[1]);
    expect(parses()).toBe(1);
    storage.close();
  });

  it("are not kept for a version-3 file: its entries stay on disk until read", () => {
    const path = tmp.file();
    // Keys out of pi's order: the load parses these lines to find their records.
    const entries = chain(20).map(({ type, id, parentId, ...rest }) => ({ ...rest, parentId, id, type }));
    writeFileSync(path, jsonl(header(), ...entries));
    const parses = countParses();
    const storage = createJsonlStorage(path);
    storage.load();
    expect(parses()).toBe(1 + entries.length);
    for (let index = 0; index < entries.length; index++) {
      expect(storage.readEntry(index)).toEqual(entries[index]);
    }
    expect(parses()).toBe(1 + 2 * entries.length);
    storage.close();
  });

  it("give a store the same migrated session as reading every line again would", () => {
    const path = tmp.file();
    const entries = versionOneFile(path, 30);
    const store = openSessionStore(path, { storage: { readOnly: true } });
    const again = openSessionStore(path, { storage: { readOnly: true } });
    const projected = store.getProjection().messages;
    expect(projected).toHaveLength(entries.length);
    expect(projected.map((m) => (m as { content: unknown }).content)).toEqual(
      entries.map((e) => (e.message as { content: unknown }).content),
    );
    // Ids of a version-1 file are derived from the header and positions: the same on every open.
    expect(store.getEntries().map((e) => e.id)).toEqual(again.getEntries().map((e) => e.id));
    store.close();
    again.close();
  });

  it("are kept for the first KEEP_PARSED_MAX_BYTES of lines only: the entries after are read again", () => {
    const path = tmp.file();
    // 64 KB lines: 1.5 times the budget in all.
    const count = Math.ceil((KEEP_PARSED_MAX_BYTES * 1.5) / (64 * 1024));
    const entries = versionOneFile(path, count, 64 * 1024);
    const parses = countParses();
    const storage = createJsonlStorage(path);
    storage.load();
    const atLoad = parses();
    for (let index = 0; index < entries.length; index += 7) {
      expect(storage.readEntry(index)).toEqual(entries[index]);
    }
    const kept = Math.ceil(KEEP_PARSED_MAX_BYTES / (64 * 1024 + 150));
    const reads = Math.ceil(entries.length / 7);
    const readAgain = parses() - atLoad;
    // Every line is parsed at load; of the entries read, only those past the budget are parsed again.
    expect(atLoad).toBe(1 + entries.length);
    expect(readAgain).toBeGreaterThan(0);
    expect(readAgain).toBeLessThan(reads - Math.floor(kept / 7) + 2);
    storage.close();
  });

  it("are let go of by dropParsed (what the storage calls when it closes)", () => {
    const path = tmp.file();
    versionOneFile(path, 3);
    const bytes = readFileSync(path);
    const scanner = new LineScanner(path, new RecordTable(), { small: true });
    scanner.scanChunk(bytes, bytes.length, 0);
    expect(scanner.takeParsed(0)).toMatchObject({ type: "message" });
    scanner.dropParsed();
    expect(scanner.takeParsed(1)).toBeUndefined();
  });
});
