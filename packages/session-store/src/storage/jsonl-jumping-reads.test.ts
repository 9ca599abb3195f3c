import * as nodeFs from "node:fs";
import { writeFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chain, header, jsonl, tempDir } from "./__fixtures__/storage-fixtures";
import { createJsonlStorage } from "./create-jsonl-storage";
import type { StorageFs } from "./internal/storage-fs";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

/** The real fs, counting the bytes `readSync` reads. */
function countingFs(): { fs: StorageFs; bytes: () => number } {
  let bytes = 0;
  const fs: StorageFs = {
    ...nodeFs,
    readSync: ((...args: Parameters<typeof nodeFs.readSync>) => {
      const read = nodeFs.readSync(...args);
      bytes += read;
      return read;
    }) as typeof nodeFs.readSync,
  };
  return { fs, bytes: () => bytes };
}

/** A session of 4,000 entries of about 2 KB each (8 MB), its entries, and a storage reading it. */
function bigSession() {
  const path = tmp.file();
  const entries = chain(4000).map((entry) => ({
    ...entry,
    message: { role: "user", content: "x".repeat(2000), timestamp: 1 },
  }));
  writeFileSync(path, jsonl(header(), ...entries));
  const io = countingFs();
  const storage = createJsonlStorage(path, { fs: io.fs, readOnly: true, sidecarIndex: false });
  storage.load();
  return { entries, storage, bytes: io.bytes };
}

describe("entry reads that jump around a large file", () => {
  it("read small windows once a window served only a few reads", () => {
    const { entries, storage, bytes } = bigSession();
    const before = bytes();
    // Pairs far apart, as the children of forks are read: each read misses the window.
    const far = [100, 3100, 400, 3400, 700, 3700, 1000, 2500, 1300, 2800, 1600, 2200];
    for (const index of far) expect(storage.readEntry(index)).toEqual(entries[index]);
    // The first miss reads a whole window (1 MiB); the others 64 KiB each, not 1 MiB each.
    expect(bytes() - before).toBeLessThan(1024 * 1024 + far.length * 64 * 1024);
    storage.close();
  });

  it("still read whole windows when going through the file in order", () => {
    const { entries, storage, bytes } = bigSession();
    const before = bytes();
    for (let index = 0; index < entries.length; index++) {
      expect(storage.readEntry(index)).toEqual(entries[index]);
    }
    const read = bytes() - before;
    // About the file once: windows of 1 MiB, a few small ones where a window served few reads.
    expect(read).toBeLessThan(10 * 1024 * 1024);
    storage.close();
  });
});
