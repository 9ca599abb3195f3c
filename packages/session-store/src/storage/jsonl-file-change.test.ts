import {
  appendFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { header, jsonl, message, tempDir } from "./__fixtures__/storage-fixtures";
import { createJsonlStorage } from "./create-jsonl-storage";
import type { SessionStorageError } from "./session-storage-error";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

function appendError(run: () => void): SessionStorageError {
  try {
    run();
  } catch (error) {
    return error as SessionStorageError;
  }
  throw new Error("expected the append to throw");
}

/** A session with two entries, loaded by a writable storage that has already appended once (or not). */
function openSession(appendedOnce: boolean) {
  const path = tmp.file();
  writeFileSync(path, jsonl(header(), message("a", null)));
  const storage = createJsonlStorage(path);
  storage.load();
  if (appendedOnce) storage.append([message("b", "a")]);
  const written = readFileSync(path, "utf8");
  return { path, storage, written };
}

describe("a session file changed by another program while open", () => {
  it.each([true, false])(
    "deleted (append descriptor open: %s): refused, nothing created, the bytes saved beside it",
    (appendedOnce) => {
      const { path, storage, written } = openSession(appendedOnce);
      unlinkSync(path);
      const error = appendError(() => storage.append([message("c", appendedOnce ? "b" : "a")]));
      expect(error.code).toBe("SESSION_FILE_CHANGED");
      expect(error.change).toBe("deleted");
      expect(error.message).toContain(`${path} was deleted while the session was open`);
      expect(error.message).toContain("Nothing was appended");
      expect(existsSync(path)).toBe(false);
      expect(readFileSync(error.recoveredPath as string, "utf8")).toBe(written);
      expect(error.message).toContain(error.recoveredPath);
      // Every later append is refused the same way; close still releases the lock.
      expect(appendError(() => storage.append([message("d", "a")])).code).toBe("SESSION_FILE_CHANGED");
      storage.close();
      expect(readdirSync(tmp.dir).filter((name) => !name.includes(".recovered-"))).toEqual([]);
    },
  );

  it.each([true, false])(
    "replaced by a rename (append descriptor open: %s): the new file is left alone",
    (appendedOnce) => {
      const { path, storage, written } = openSession(appendedOnce);
      const other = jsonl({ ...header("someone-else") });
      writeFileSync(tmp.file("other.jsonl"), other);
      renameSync(tmp.file("other.jsonl"), path);
      const error = appendError(() => storage.append([message("c", "a")]));
      expect(error.change).toBe("replaced");
      expect(error.message).toContain("was replaced by another file");
      expect(readFileSync(path, "utf8")).toBe(other);
      expect(readFileSync(error.recoveredPath as string, "utf8")).toBe(written);
      storage.close();
      expect(readFileSync(path, "utf8")).toBe(other);
    },
  );

  it("truncated: refused, the file left as the other program made it", () => {
    const { path, storage } = openSession(true);
    truncateSync(path, 20);
    const cut = readFileSync(path, "utf8");
    const error = appendError(() => storage.append([message("c", "b")]));
    expect(error.change).toBe("truncated");
    expect(error.message).toMatch(/was truncated by another program .*\(\d+ bytes written, 20 left\)/);
    expect(error.recoveredPath).toBeUndefined();
    storage.close();
    expect(readFileSync(path, "utf8")).toBe(cut);
  });

  it("grown by another writer: refused, nothing interleaved", () => {
    const { path, storage, written } = openSession(true);
    const foreign = jsonl(message("x", "b"));
    appendFileSync(path, foreign);
    const error = appendError(() => storage.append([message("c", "b")]));
    expect(error.change).toBe("grown");
    expect(error.message).toContain(`grew by ${Buffer.byteLength(foreign)} bytes`);
    storage.close();
    expect(readFileSync(path, "utf8")).toBe(written + foreign);
  });

  it("is not reported for the storage's own appends, on a loaded or a new file", () => {
    const { path, storage } = openSession(true);
    for (let k = 0; k < 5; k++) storage.append([message(`n${k}`, k === 0 ? "b" : `n${k - 1}`)]);
    storage.close();
    const created = createJsonlStorage(tmp.file("new.jsonl"));
    created.load();
    created.append([header(), message("a", null)]);
    created.append([message("b", "a")]);
    created.close();
    expect(readFileSync(path, "utf8").trim().split("\n")).toHaveLength(8);
  });
});
