import * as nodeFs from "node:fs";
import { readFileSync, writeFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chain, header, jsonl, message, tempDir } from "./__fixtures__/storage-fixtures";
import { createJsonlStorage } from "./create-jsonl-storage";
import { SMALL_FILE_BYTES } from "./internal/open-session-file";
import { CHUNK_BYTES } from "./internal/scan-session-file";
import type { StorageFs } from "./internal/storage-fs";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

/** The real fs, counting `readSync` calls. */
function countingFs(): { fs: StorageFs; reads: () => number } {
  let reads = 0;
  const fs: StorageFs = {
    ...nodeFs,
    readSync: ((...args: Parameters<typeof nodeFs.readSync>) => {
      reads++;
      return nodeFs.readSync(...args);
    }) as typeof nodeFs.readSync,
  };
  return { fs, reads: () => reads };
}

describe("entry reads of a small session", () => {
  it("come from the bytes the load read: one read for the whole open and every entry", () => {
    const path = tmp.file();
    const entries = chain(200);
    writeFileSync(path, jsonl(header(), ...entries));
    const io = countingFs();
    const storage = createJsonlStorage(path, { fs: io.fs });
    storage.load();
    const afterLoad = io.reads();
    expect(afterLoad).toBe(1);
    for (let index = entries.length - 1; index >= 0; index--) {
      expect(storage.readEntry(index)).toEqual(entries[index]);
    }
    expect(io.reads()).toBe(afterLoad);
    storage.close();
  });

  it("of a file larger than a scan chunk: its last chunk is held for the leaf, the rest read in chunk-sized windows", () => {
    const path = tmp.file();
    const entries = chain(400).map((entry, index) =>
      index % 2 === 1
        ? { ...entry, message: { role: "assistant", content: [{ type: "text", text: "y".repeat(3000) }] } }
        : entry,
    );
    writeFileSync(path, jsonl(header(), ...entries));
    const size = readFileSync(path).length;
    expect(size).toBeGreaterThan(CHUNK_BYTES);
    expect(size).toBeLessThanOrEqual(SMALL_FILE_BYTES);
    const io = countingFs();
    const storage = createJsonlStorage(path, { fs: io.fs });
    storage.load();
    // Read in chunks: a buffer of the file's size would be fresh memory as large as the file.
    const chunks = Math.ceil(size / CHUNK_BYTES);
    expect(io.reads()).toBeGreaterThanOrEqual(chunks);
    expect(io.reads()).toBeLessThanOrEqual(chunks + 1);
    const afterLoad = io.reads();
    // The leaf and the entries before it, as far as the last chunk goes, are served from memory.
    expect(storage.readEntry(entries.length - 1)).toEqual(entries[entries.length - 1]);
    expect(storage.readEntry(entries.length - 20)).toEqual(entries[entries.length - 20]);
    expect(io.reads()).toBe(afterLoad);
    // Walking down to the root reads the rest once, a chunk at a time.
    for (let index = entries.length - 1; index >= 0; index--) {
      expect(storage.readEntry(index)).toEqual(entries[index]);
    }
    expect(io.reads() - afterLoad).toBeGreaterThanOrEqual(chunks - 1);
    expect(io.reads() - afterLoad).toBeLessThanOrEqual(chunks);
    storage.close();
  });

  it("give the entries as loaded when another program rewrote the file in place meanwhile", () => {
    const path = tmp.file();
    writeFileSync(path, jsonl(header(), message("aaaa", null), message("bbbb", "aaaa")));
    const storage = createJsonlStorage(path, { readOnly: true });
    storage.load();
    writeFileSync(path, readFileSync(path, "utf8").replace('"id":"bbbb"', '"id":"cccc"'));
    // The records and the entries stay one consistent snapshot (pi, too, reads a session once).
    expect(storage.readEntry(1)).toEqual(message("bbbb", "aaaa"));
    storage.close();
  });

  it("read the file again after an append (the held bytes are dropped on every write)", () => {
    const path = tmp.file();
    const entries = chain(20);
    writeFileSync(path, jsonl(header(), ...entries));
    const io = countingFs();
    const storage = createJsonlStorage(path, { fs: io.fs });
    storage.load();
    storage.append([message("n", "e19")]);
    const before = io.reads();
    expect(storage.readEntry(20)).toEqual(message("n", "e19"));
    expect(storage.readEntry(3)).toEqual(entries[3]);
    expect(io.reads()).toBeGreaterThan(before);
    storage.close();
  });

  it("are not held for a session above the small-file size, nor for one with an unterminated last line", () => {
    const path = tmp.file();
    const big = "x".repeat(64 * 1024);
    const count = Math.ceil(SMALL_FILE_BYTES / big.length) + 1;
    const entries = chain(count).map((entry) => ({ ...entry, pad: big }));
    writeFileSync(path, jsonl(header(), ...entries));
    const io = countingFs();
    const storage = createJsonlStorage(path, { fs: io.fs, readOnly: true });
    storage.load();
    const afterLoad = io.reads();
    expect(storage.readEntry(0)).toEqual(entries[0]);
    expect(io.reads()).toBeGreaterThan(afterLoad);
    storage.close();

    const torn = tmp.file("torn.jsonl");
    writeFileSync(torn, `${jsonl(header(), ...chain(3))}{"type":"message","id":"t"`);
    const tornIo = countingFs();
    const tornStorage = createJsonlStorage(torn, { fs: tornIo.fs, readOnly: true });
    tornStorage.load();
    const tornAfterLoad = tornIo.reads();
    expect(tornStorage.readEntry(2)).toEqual(chain(3)[2]);
    expect(tornIo.reads()).toBeGreaterThan(tornAfterLoad);
    tornStorage.close();
  });
});
