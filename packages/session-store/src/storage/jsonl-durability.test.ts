import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  chain,
  header,
  instrumentedFs,
  jsonl,
  message,
  storageErrorOf,
  tempDir,
} from "./__fixtures__/storage-fixtures";
import { createJsonlStorage } from "./create-jsonl-storage";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => {
  vi.useRealTimers();
  tmp.cleanup();
});

describe("durability modes", () => {
  it("always: every append is in the file and fsynced before append returns", () => {
    const io = instrumentedFs();
    const path = tmp.file();
    const storage = createJsonlStorage(path, { durability: "always", fs: io.fs });
    storage.load();
    storage.append([header(), message("a", null)]);
    expect(storage.stats().fsyncs).toBe(1);
    expect(readFileSync(path, "utf8")).toBe(jsonl(header(), message("a", null)));
    storage.append([message("b", "a")]);
    storage.append([message("c", "b"), message("d", "c")]);
    expect(storage.stats().fsyncs).toBe(3);
    expect(readFileSync(path, "utf8")).toBe(
      jsonl(header(), ...["a", "b", "c", "d"].map((id, i, ids) => message(id, ids[i - 1] ?? null))),
    );
    storage.close();
    expect(storage.stats().fsyncs).toBe(3); // nothing pending at close
  });

  it("batched: lines are written at once, fsync waits for the interval, sync() or close()", () => {
    vi.useFakeTimers();
    const io = instrumentedFs();
    const path = tmp.file();
    const storage = createJsonlStorage(path, { durability: "batched", batchIntervalMs: 1000, fs: io.fs });
    storage.load();
    storage.append([header(), message("a", null)]);
    storage.append([message("b", "a")]);
    expect(readFileSync(path, "utf8")).toBe(jsonl(header(), message("a", null), message("b", "a")));
    expect(storage.stats().fsyncs).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(storage.stats().fsyncs).toBe(1); // the timer synced the batch
    vi.advanceTimersByTime(5000);
    storage.append([message("c", "b")]); // interval elapsed: synced inline
    expect(storage.stats().fsyncs).toBe(2);
    storage.append([message("d", "c")]);
    expect(storage.stats().fsyncs).toBe(2);
    storage.sync();
    expect(storage.stats().fsyncs).toBe(3);
    storage.append([message("e", "d")]);
    storage.close();
    expect(storage.stats().fsyncs).toBe(4); // close syncs what is pending
  });

  it("never: lines are written at once and never fsynced (pi's behaviour)", () => {
    const io = instrumentedFs();
    const path = tmp.file();
    const storage = createJsonlStorage(path, { durability: "never", fs: io.fs });
    storage.load();
    storage.append([header(), ...chain(3)]);
    expect(readFileSync(path, "utf8")).toBe(jsonl(header(), ...chain(3)));
    storage.close();
    expect(storage.stats().fsyncs).toBe(0);
    expect(io.calls.fsync).toBe(0);
  });

  it("defaults to batched", () => {
    expect(createJsonlStorage(tmp.file()).durability).toBe("batched");
  });
});

describe("write failures", () => {
  it("surface as SESSION_WRITE_FAILED and cut the file back to its last complete line", () => {
    const io = instrumentedFs();
    const path = tmp.file();
    const storage = createJsonlStorage(path, { durability: "never", fs: io.fs });
    storage.load();
    storage.append([header(), message("a", null)]);
    const before = readFileSync(path);

    io.failWrite("partial-then-throw"); // half of the first line reaches the file, then ENOSPC
    const error = storageErrorOf(() => storage.append([message("b", "a"), message("c", "b")]));
    expect(error.code).toBe("SESSION_WRITE_FAILED");
    expect(error.message).toContain(path);
    expect(error.message).toContain("ENOSPC");
    expect(readFileSync(path).equals(before)).toBe(true);

    io.failWrite("none");
    storage.append([message("b", "a")]); // still usable, and indices continue where they were
    expect(storage.readEntry(1)).toEqual(message("b", "a"));
    storage.close();
    const reader = createJsonlStorage(path, { readOnly: true });
    expect(reader.load()).toMatchObject({ issues: [], records: [{ id: "a" }, { id: "b" }] });
    reader.close();
  });

  it("roll back the whole append call when fsync fails in `always` mode", () => {
    const io = instrumentedFs();
    const path = tmp.file();
    const storage = createJsonlStorage(path, { durability: "always", fs: io.fs });
    storage.load();
    storage.append([header(), message("a", null)]);
    const before = readFileSync(path);
    io.failFsync(true);
    expect(storageErrorOf(() => storage.append([message("b", "a"), message("c", "b")])).code).toBe(
      "SESSION_WRITE_FAILED",
    );
    expect(readFileSync(path).equals(before)).toBe(true);
    io.failFsync(false);
    storage.close();
  });

  it("report a one-entry append (the common case, written without the batch bookkeeping) as a batch: the entry's line, or the line after it for the fsync", () => {
    const io = instrumentedFs();
    const path = tmp.file();
    const storage = createJsonlStorage(path, { durability: "always", fs: io.fs });
    storage.load();
    storage.append([header(), message("a", null)]);
    const before = readFileSync(path);

    io.failWrite("partial-then-throw");
    const writeError = storageErrorOf(() => storage.append([message("b", "a")]));
    expect(writeError.code).toBe("SESSION_WRITE_FAILED");
    expect(writeError.line).toBe(3);
    expect(writeError.message).toMatch(
      new RegExp(
        `^${escapeRegExp(path)}:3: writing entry b failed \\(.*ENOSPC.*\\)\\. The file was cut back to its previous ${before.length} bytes`,
      ),
    );
    expect(readFileSync(path).equals(before)).toBe(true);

    io.failWrite("none");
    io.failFsync(true);
    const fsyncError = storageErrorOf(() => storage.append([message("b", "a")]));
    expect(fsyncError.line).toBe(4);
    expect(fsyncError.message).toContain(`${path}:4: writing the fsync failed`);
    expect(readFileSync(path).equals(before)).toBe(true);

    io.failFsync(false);
    storage.append([message("b", "a")]); // the records were rolled back: b lands at index 1, line 3
    expect(storage.readEntry(1)).toEqual(message("b", "a"));
    expect(storage.lineOf(1)).toBe(3);
    storage.close();
  });

  it("disable writing when the file cannot be cut back; a reopen quarantines the torn line and keeps the rest", () => {
    const io = instrumentedFs();
    const path = tmp.file();
    const storage = createJsonlStorage(path, { durability: "never", fs: io.fs });
    storage.load();
    storage.append([header(), message("a", null)]);
    io.failWrite("partial-then-throw");
    io.failTruncate(true);
    const error = storageErrorOf(() => storage.append([message("b", "a")]));
    expect(error.code).toBe("SESSION_WRITE_FAILED");
    expect(error.message).toContain("reopen");
    io.failWrite("none");
    io.failTruncate(false);
    expect(storageErrorOf(() => storage.append([message("c", "a")])).code).toBe("SESSION_WRITE_FAILED");
    storage.close();

    const reopened = createJsonlStorage(path);
    const { records, issues } = reopened.load();
    expect(records.map((r) => r.id)).toEqual(["a"]);
    expect(issues.map((i) => i.code)).toEqual(["SESSION_TAIL_TORN"]);
    reopened.append([message("b", "a")]);
    reopened.close();
    expect(readFileSync(path, "utf8")).toBe(jsonl(header(), message("a", null), message("b", "a")));
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
