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
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { header, jsonl, message, tempDir } from "./__fixtures__/storage-fixtures";
import { createJsonlStorage } from "./create-jsonl-storage";
import type { JsonlStorageOptions } from "./jsonl-storage-options";
import type { SessionStorageError } from "./session-storage-error";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => {
  vi.restoreAllMocks();
  tmp.cleanup();
});

function appendError(run: () => void): SessionStorageError {
  try {
    run();
  } catch (error) {
    return error as SessionStorageError;
  }
  throw new Error("expected the append to throw");
}

/** A session with two entries, loaded by a writable storage that has already appended once (or not). */
function openSession(appendedOnce: boolean, options: JsonlStorageOptions = { fileCheckIntervalMs: 0 }) {
  const path = tmp.file();
  writeFileSync(path, jsonl(header(), message("a", null)));
  const storage = createJsonlStorage(path, options);
  storage.load();
  if (appendedOnce) storage.append([message("b", "a")]);
  const written = readFileSync(path, "utf8");
  return { path, storage, written };
}

/** Makes `Date.now()` return what `clock.now` holds (the guard's interval is read from it). */
function stoppedClock() {
  const clock = { now: 1_750_000_000_000 };
  vi.spyOn(Date, "now").mockImplementation(() => clock.now);
  return clock;
}

describe("a session file changed by another program while open (identity checked before every append)", () => {
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

describe("appends of one synchronous run share a check (at most 100 ms apart by default)", () => {
  it("an append after an await is checked again", async () => {
    stoppedClock();
    const { path, storage } = openSession(true, {});
    unlinkSync(path);
    await Promise.resolve();
    const error = appendError(() => storage.append([message("c", "b")]));
    expect(error.change).toBe("deleted");
    expect(error.message).not.toContain("appended after the file was last checked");
    expect(readFileSync(error.recoveredPath as string, "utf8")).toBe(
      jsonl(header(), message("a", null), message("b", "a")),
    );
    storage.close();
  });

  it("a timer between two appends starts a new run too", async () => {
    stoppedClock();
    const { path, storage } = openSession(true, {});
    appendFileSync(path, jsonl(message("x", "b")));
    await new Promise((done) => setImmediate(done));
    expect(appendError(() => storage.append([message("c", "b")])).change).toBe("grown");
    storage.close();
  });

  it("an append within the interval reaches the old file; the next check refuses and saves it", () => {
    const clock = stoppedClock();
    const { path, storage } = openSession(true, { durability: "never" });
    unlinkSync(path);
    clock.now += 99;
    storage.append([message("c", "b")]); // not checked yet: written to the deleted file, still open
    clock.now += 1;
    const error = appendError(() => storage.append([message("d", "c")]));
    expect(error.change).toBe("deleted");
    const late = Buffer.byteLength(jsonl(message("c", "b")));
    expect(error.message).toContain(
      `The session's last ${late} bytes were appended after the file was last checked and reached the old file only`,
    );
    expect(error.message).toContain("Nothing was appended");
    expect(readFileSync(error.recoveredPath as string, "utf8")).toBe(
      jsonl(header(), message("a", null), message("b", "a"), message("c", "b")),
    );
    expect(existsSync(path)).toBe(false);
    storage.close();
  });

  it("close finds a replacement made after the last check and saves what was appended since", () => {
    stoppedClock();
    const { path, storage } = openSession(true, {});
    const other = jsonl(header("someone-else"));
    writeFileSync(tmp.file("other.jsonl"), other);
    renameSync(tmp.file("other.jsonl"), path);
    storage.append([message("c", "b")]);
    const error = appendError(() => storage.close());
    expect(error.code).toBe("SESSION_FILE_CHANGED");
    expect(error.change).toBe("replaced");
    expect(error.message).toContain("Found on close.");
    expect(error.message).not.toContain("Nothing was appended");
    expect(readFileSync(error.recoveredPath as string, "utf8")).toBe(
      jsonl(header(), message("a", null), message("b", "a"), message("c", "b")),
    );
    expect(readFileSync(path, "utf8")).toBe(other);
    expect(() => storage.close()).not.toThrow();
  });

  it("close says nothing when nothing was appended since the last check", () => {
    stoppedClock();
    const { path, storage } = openSession(true, {});
    unlinkSync(path);
    expect(() => storage.close()).not.toThrow();
    expect(readdirSync(tmp.dir)).toEqual([]);
  });

  it("the first append of a descriptor is always checked", () => {
    stoppedClock();
    const { path, storage } = openSession(false, {});
    renameSync(path, tmp.file("moved.jsonl"));
    writeFileSync(path, jsonl(header("someone-else")));
    expect(appendError(() => storage.append([message("c", "a")])).change).toBe("replaced");
    storage.close();
  });

  it("a foreign append inside the interval is found at the next check; both writers' lines are kept", () => {
    const clock = stoppedClock();
    const { path, storage, written } = openSession(true, {});
    const foreign = jsonl(message("x", "b"));
    appendFileSync(path, foreign);
    clock.now += 99;
    storage.append([message("c", "b")]); // not checked: lands after the other writer's line
    clock.now += 1;
    const error = appendError(() => storage.append([message("d", "c")]));
    expect(error.change).toBe("grown");
    expect(error.message).toContain(`grew by ${Buffer.byteLength(foreign)} bytes`);
    const late = Buffer.byteLength(jsonl(message("c", "b")));
    expect(error.message).toContain(
      `The session's last ${late} bytes were appended after the file was last checked: they follow`,
    );
    storage.close();
    expect(readFileSync(path, "utf8")).toBe(written + foreign + jsonl(message("c", "b")));
  });

  it("a truncation inside the interval is found at the next check", () => {
    const clock = stoppedClock();
    const { path, storage } = openSession(true, {});
    const head = jsonl(header());
    truncateSync(path, Buffer.byteLength(head));
    storage.append([message("c", "b")]);
    clock.now += 100;
    const error = appendError(() => storage.append([message("d", "c")]));
    expect(error.change).toBe("truncated");
    storage.close();
    expect(readFileSync(path, "utf8")).toBe(head + jsonl(message("c", "b")));
  });

  it("close finds a foreign append made after the last check, and writes no index then", () => {
    stoppedClock();
    const { path, storage } = openSession(true, { sidecarIndex: true, sidecarMinBytes: 0 });
    storage.append([message("c", "b")]);
    appendFileSync(path, jsonl(message("x", "c")));
    expect(appendError(() => storage.close()).change).toBe("grown");
    expect(existsSync(`${path}.idx`)).toBe(false);
  });

  it("durability always checks the identity before every append", () => {
    stoppedClock();
    const { path, storage } = openSession(true, { durability: "always" });
    unlinkSync(path);
    expect(appendError(() => storage.append([message("c", "b")])).change).toBe("deleted");
    storage.close();
  });

  it.each([
    [{ fileCheckIntervalMs: -1 }, "fileCheckIntervalMs", "-1"],
    [{ fileCheckIntervalMs: Number.NaN }, "fileCheckIntervalMs", "NaN"],
    [{ batchIntervalMs: "1s" as unknown as number }, "batchIntervalMs", "1s"],
  ])("a wrong interval option is refused: %o", (options, name, shown) => {
    const path = tmp.file();
    const error = appendError(() => createJsonlStorage(path, options));
    expect(error.code).toBe("SESSION_OPTIONS_INVALID");
    expect(error.message).toContain(`${path}: the storage option ${name} must be a number of milliseconds`);
    expect(error.message).toContain(`got ${shown}`);
    expect(existsSync(path)).toBe(false);
  });
});
