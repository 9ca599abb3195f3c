import { writeFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { header, jsonl, message, storageErrorOf, tempDir } from "./__fixtures__/storage-fixtures";
import { createJsonlStorage } from "./create-jsonl-storage";
import { nodeStorageFs, type StorageFs } from "./internal/storage-fs";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

describe("a read that fails after the load", () => {
  it("entry and line-bytes reads both throw SESSION_READ_FAILED naming the file, line and entry", () => {
    const path = tmp.file();
    // Over 4 MB, so that the load keeps none of the file's bytes and every entry read goes to the disk.
    const big = "x".repeat(1_500_000);
    writeFileSync(
      path,
      jsonl(
        header(),
        message("a", null, "user", big),
        message("b", "a", "user", big),
        message("c", "b", "user", big),
      ),
    );
    let failReads = false;
    const fs: StorageFs = {
      ...nodeStorageFs,
      readSync: ((...args: Parameters<StorageFs["readSync"]>) => {
        if (failReads) throw Object.assign(new Error("EIO: i/o error, read"), { code: "EIO" });
        return (nodeStorageFs.readSync as (...a: unknown[]) => number)(...args);
      }) as StorageFs["readSync"],
    };
    const storage = createJsonlStorage(path, { fs });
    storage.load();
    failReads = true;
    for (const read of [() => storage.readEntry(1), () => storage.readEntryLine?.(1)]) {
      const error = storageErrorOf(read);
      expect(error.code).toBe("SESSION_READ_FAILED");
      expect(error.message).toBe(`${path}:3: cannot read entry b (Error: EIO: i/o error, read).`);
      expect(error.line).toBe(3);
    }
    // Nothing is held from the failed reads: once the disk answers again, the entry reads as written.
    failReads = false;
    expect(storage.readEntry(1)).toMatchObject({ id: "b", parentId: "a" });
    storage.close();
  });
});
