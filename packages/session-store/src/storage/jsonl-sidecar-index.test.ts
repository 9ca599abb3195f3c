import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chain, header, hostileIdEntries, jsonl, message, tempDir } from "./__fixtures__/storage-fixtures";
import { createJsonlStorage } from "./create-jsonl-storage";
import { SessionStorageError } from "./session-storage-error";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => tmp.cleanup());

/** Writes a session of `count` entries and closes it with a sidecar index. Returns the file text. */
function indexedSession(path: string, count: number): string {
  const storage = createJsonlStorage(path, { sidecarIndex: true, sidecarMinBytes: 0 });
  storage.load();
  storage.append([header(), ...chain(count)]);
  storage.close();
  expect(existsSync(`${path}.idx`)).toBe(true);
  return readFileSync(path, "utf8");
}

function fresh(path: string) {
  const storage = createJsonlStorage(path, { readOnly: true });
  const result = storage.load();
  storage.close();
  return result;
}

describe("where the sidecar index lives (an explicit opt-in)", () => {
  const entries = () => [header(), ...chain(30)];

  it("is neither read nor written by default", () => {
    const path = tmp.file();
    const storage = createJsonlStorage(path, { sidecarMinBytes: 0 });
    storage.load();
    storage.append(entries());
    expect(storage.writeIndex()).toBe(false);
    storage.close();
    expect(readdirSync(tmp.dir)).toEqual(["session.jsonl"]);
    indexedSession(path, 30); // a `<session>.idx` from an opted-in writer...
    const reader = createJsonlStorage(path, { readOnly: true, sidecarMinBytes: 0 });
    reader.load();
    expect(reader.stats()).toMatchObject({ indexUsed: false, indexRejectedReason: undefined });
    reader.close(); // ...is ignored by a storage that did not opt in
  });

  it("beside the session (`true`): a read-only storage uses it but never writes one", () => {
    const path = tmp.file();
    writeFileSync(path, jsonl(...entries()));
    const reader = createJsonlStorage(path, { sidecarIndex: true, readOnly: true, sidecarMinBytes: 0 });
    reader.load();
    expect(reader.writeIndex()).toBe(false);
    reader.close();
    expect(readdirSync(tmp.dir)).toEqual(["session.jsonl"]);
    indexedSession(path, 30);
    const again = createJsonlStorage(path, { sidecarIndex: true, readOnly: true, sidecarMinBytes: 0 });
    again.load();
    expect(again.stats().indexUsed).toBe(true);
    again.close();
  });

  it("keeps the issues of a file with hundreds of thousands of damaged lines (more than a call's arguments)", {
    timeout: 60_000,
  }, () => {
    const path = tmp.file();
    writeFileSync(path, jsonl(...entries()) + "not json at all\n".repeat(300_000));
    const writer = createJsonlStorage(path, { sidecarIndex: true, sidecarMinBytes: 0 });
    expect(writer.load().issues).toHaveLength(300_000);
    writer.close();
    const again = createJsonlStorage(path, { sidecarIndex: true, readOnly: true, sidecarMinBytes: 0 });
    const reloaded = again.load();
    expect(again.stats().indexUsed).toBe(true);
    expect(reloaded.issues).toHaveLength(300_000);
    expect(reloaded.issues.at(-1)?.line).toBe(31 + 300_000);
    again.close();
  });

  it("in a cache folder (`{ dir }`): written there, also by read-only storages, and used by the next open", () => {
    const path = tmp.file();
    const text = jsonl(...entries());
    writeFileSync(path, text);
    const cache = join(tmp.dir, "cache", "index");
    const options = { sidecarIndex: { dir: cache }, readOnly: true, sidecarMinBytes: 0 } as const;
    const first = createJsonlStorage(path, options);
    const cold = first.load();
    expect(first.stats().indexRejectedReason).toBe("missing");
    first.close();
    expect(readdirSync(tmp.dir).sort()).toEqual(["cache", "session.jsonl"]);
    expect(readFileSync(path, "utf8")).toBe(text);
    const [indexFile] = readdirSync(cache);
    expect(indexFile).toMatch(/^[0-9a-f]{32}\.idx$/);
    const second = createJsonlStorage(path, options);
    expect(second.load()).toEqual(cold);
    expect(second.stats()).toMatchObject({ indexUsed: true, bytesScanned: 0 });
    second.close();
    // Another session gets another index file in the same folder.
    const other = tmp.file("other.jsonl");
    writeFileSync(other, text);
    const third = createJsonlStorage(other, options);
    third.load();
    expect(third.stats().indexUsed).toBe(false);
    third.close();
    expect(readdirSync(cache)).toHaveLength(2);
  });

  it("with `writeOnSecondOpen`: a first read-only open leaves a marker, the second writes the index, the third uses it", () => {
    const path = tmp.file();
    const text = jsonl(...entries());
    writeFileSync(path, text);
    const cache = join(tmp.dir, "cache", "index");
    const options = {
      sidecarIndex: { dir: cache, writeOnSecondOpen: true },
      readOnly: true,
      sidecarMinBytes: 0,
    } as const;
    const first = createJsonlStorage(path, options);
    const cold = first.load();
    first.close();
    expect(first.stats()).toMatchObject({ indexRejectedReason: "missing", indexWrites: 0 });
    const [marker] = readdirSync(cache);
    expect(marker).toMatch(/^[0-9a-f]{32}\.idx$/);
    expect(readFileSync(join(cache, marker as string)).length).toBeLessThan(64);
    const second = createJsonlStorage(path, options);
    expect(second.load()).toEqual(cold);
    second.close();
    expect(second.stats()).toMatchObject({
      indexUsed: false,
      indexRejectedReason: "marker of an earlier open",
      indexWrites: 1,
    });
    const third = createJsonlStorage(path, options);
    expect(third.load()).toEqual(cold);
    expect(third.stats()).toMatchObject({ indexUsed: true, bytesScanned: 0 });
    third.close();
    expect(readFileSync(path, "utf8")).toBe(text);
  });
});

describe("sidecar index", () => {
  it("lets a reopen scan only the bytes appended since the index was written", () => {
    const path = tmp.file();
    const before = indexedSession(path, 50);
    // Another writer appends three entries and writes no index (file below its sidecarMinBytes).
    const writer = createJsonlStorage(path, {
      sidecarIndex: true,
      sidecarMinBytes: Number.POSITIVE_INFINITY,
    });
    writer.load();
    writer.append([message("n0", "e49"), message("n1", "n0"), message("n2", "n1")]);
    writer.close();
    const appended = statSync(path).size - Buffer.byteLength(before);

    const storage = createJsonlStorage(path, { sidecarIndex: true, readOnly: true });
    const result = storage.load();
    const stats = storage.stats();
    expect(stats.indexUsed).toBe(true);
    expect(stats.indexedBytes).toBe(Buffer.byteLength(before));
    expect(stats.bytesScanned).toBe(appended);
    expect(stats.linesScanned).toBe(3);
    expect(result).toEqual(fresh(path));
    expect(storage.readEntry(52)).toEqual(message("n2", "n1"));
    expect(storage.lineOf(52)).toBe(54);
    storage.close();
  });

  it("is refreshed by close so that the next open scans nothing", () => {
    const path = tmp.file();
    indexedSession(path, 10);
    const writer = createJsonlStorage(path, { sidecarIndex: true, sidecarMinBytes: 0 });
    writer.load();
    writer.append([message("x", "e9")]);
    writer.close();
    const reader = createJsonlStorage(path, { sidecarIndex: true, readOnly: true });
    expect(reader.load().records).toHaveLength(11);
    expect(reader.stats()).toMatchObject({ indexUsed: true, bytesScanned: 0 });
    reader.close();
  });

  it("is rejected when the indexed prefix changed (same size), and the result equals a fresh scan", () => {
    const path = tmp.file();
    const text = indexedSession(path, 20);
    writeFileSync(path, text.replace('"id":"e7"', '"id":"q7"').replace('"parentId":"e7"', '"parentId":"q7"'));
    const storage = createJsonlStorage(path, { sidecarIndex: true, readOnly: true });
    const result = storage.load();
    expect(storage.stats()).toMatchObject({
      indexUsed: false,
      indexRejectedReason: "indexed prefix changed",
    });
    expect(result.records[7]?.id).toBe("q7");
    expect(result).toEqual(fresh(path));
    storage.close();
  });

  it("is rejected when the file is shorter than the indexed prefix (truncated or replaced)", () => {
    const path = tmp.file();
    indexedSession(path, 20);
    writeFileSync(path, jsonl(header(), ...chain(3)));
    const storage = createJsonlStorage(path, { sidecarIndex: true, readOnly: true });
    expect(storage.load().records).toHaveLength(3);
    expect(storage.stats().indexUsed).toBe(false);
    storage.close();
  });

  it("is rejected when the index file itself is corrupt or not an index", () => {
    const path = tmp.file();
    indexedSession(path, 20);
    const idx = readFileSync(`${path}.idx`);
    const flipped = Buffer.from(idx);
    flipped[flipped.length - 5] = (flipped[flipped.length - 5] as number) ^ 0xff;
    for (const [bytes, reason] of [
      [flipped, "index digest mismatch"],
      [idx.subarray(0, idx.length - 10), "truncated"],
      [Buffer.from("hello world, not an index at all".repeat(8)), "not an index"],
    ] as const) {
      writeFileSync(`${path}.idx`, bytes);
      const storage = createJsonlStorage(path, { sidecarIndex: true, readOnly: true });
      const result = storage.load();
      expect(storage.stats().indexRejectedReason).toBe(reason);
      expect(result).toEqual(fresh(path));
      storage.close();
    }
  });

  it("is removed by rewrite", () => {
    const path = tmp.file();
    indexedSession(path, 5);
    const storage = createJsonlStorage(path, { sidecarIndex: true });
    storage.load();
    storage.rewrite(header(), chain(2));
    expect(existsSync(`${path}.idx`)).toBe(false);
    storage.close();
  });

  it("is never trusted blindly: a change the sampling misses is caught when the entry is read", () => {
    const path = tmp.file();
    const text = indexedSession(path, 400); // large enough that most lines are not sampled
    const size = Buffer.byteLength(text);
    const sampled = (offset: number) =>
      offset < 4096 ||
      offset >= size - 4096 - 200 ||
      Array.from({ length: 16 }, (_, k) => Math.floor((size * (k + 1)) / 17)).some(
        (s) => offset + 200 > s && offset < s + 256,
      );
    let victim = -1;
    for (let i = 100; i < 300; i++) {
      if (!sampled(Buffer.byteLength(text.slice(0, text.indexOf(`"id":"e${i}"`))))) {
        victim = i;
        break;
      }
    }
    expect(victim).toBeGreaterThan(0);
    const target = `e${victim}`;
    const renamed = `z${target.slice(1)}`;
    writeFileSync(path, text.replace(`"id":"${target}"`, `"id":"${renamed}"`));
    const storage = createJsonlStorage(path, { sidecarIndex: true, readOnly: true });
    const { records } = storage.load();
    expect(storage.stats().indexUsed).toBe(true);
    expect(records[victim]?.id).toBe(target); // stale, from the index
    let code: string | undefined;
    try {
      storage.readEntry(victim);
    } catch (error) {
      code = SessionStorageError.isInstance(error) ? error.code : undefined;
    }
    expect(code).toBe("SESSION_FILE_CHANGED");
    storage.close();
  });

  it("is not written for small files by default", () => {
    const path = tmp.file();
    const storage = createJsonlStorage(path, { sidecarIndex: true });
    storage.load();
    storage.append([header(), ...chain(10)]);
    storage.close();
    expect(existsSync(`${path}.idx`)).toBe(false);
  });
});

describe("sidecar index read into a table of columns", () => {
  /** Ids of every form the packed column keeps, a parent no entry has, a repeated id, a label. */
  const hostile = hostileIdEntries();

  /** What a storage tells of its records: the load result, and the index of every id. */
  function seen(storage: ReturnType<typeof createJsonlStorage>, ids: string[]) {
    const result = storage.load();
    return {
      records: result.records,
      parents: [...(result.parentIndex ?? [])],
      repeated: result.repeatedIds,
      found: ids.map((id) => storage.indexOfId(id)),
    };
  }

  it("is the same file whether written from a table of objects or of columns", () => {
    const path = tmp.file();
    writeFileSync(path, jsonl(header(), ...hostile, ...chain(50, "c", "a1b2c3d4")));
    const written = [1e12, 0].map((recordColumnsMinBytes) => {
      const dir = tmp.file(`cache-${recordColumnsMinBytes}`);
      const storage = createJsonlStorage(path, {
        sidecarIndex: { dir },
        readOnly: true,
        recordColumnsMinBytes,
      });
      storage.load();
      expect(storage.writeIndex()).toBe(true);
      storage.close();
      return readdirSync(dir).map((name) => readFileSync(join(dir, name)));
    });
    expect(written[0]).toHaveLength(1);
    expect(written[1]).toEqual(written[0]);
  });

  it.each([0, 2000])(
    "adopts the columns (after %i chain entries) and answers as a fresh scan, before and after appends",
    (count) => {
      const path = tmp.file();
      const entries = [...hostile, ...chain(count, "c", "a1b2c3d4")];
      writeFileSync(path, jsonl(header(), ...entries));
      const ids = [...entries.map((e) => e.id as string), "nobody-has-this-id", "late"];
      const columns = { sidecarIndex: true, sidecarMinBytes: 0, recordColumnsMinBytes: 0 } as const;
      const writer = createJsonlStorage(path, columns);
      writer.load();
      writer.close();
      expect(existsSync(`${path}.idx`)).toBe(true);

      const reader = createJsonlStorage(path, { ...columns, readOnly: true });
      const fromIndex = seen(reader, ids);
      expect(reader.stats()).toMatchObject({ indexUsed: true, bytesScanned: 0 });
      reader.close();
      const scanned = createJsonlStorage(path, { readOnly: true, recordColumnsMinBytes: 0 });
      expect(fromIndex).toEqual(seen(scanned, ids));
      scanned.close();
      expect(fromIndex.found.slice(0, 2)).toEqual([8, 1]); // the later a1b2c3d4 wins
      expect(fromIndex.parents[6]).toBe(-3); // the orphan's parent is missing

      // Appends after adopting: the orphan's parent arrives, a repeated id, more than the capacity.
      const appender = createJsonlStorage(path, columns);
      appender.load();
      expect(appender.stats().indexUsed).toBe(true);
      const more = [
        message("nobody-has-this-id", "x"),
        message("late", "nobody-has-this-id"),
        ...chain(1100, "d", "late"),
      ];
      appender.append(more);
      const allIds = [...ids, ...more.map((e) => e.id as string)];
      const found = allIds.map((id) => appender.indexOfId(id));
      expect(appender.readEntry(entries.length + 1)).toEqual(more[1]);
      appender.close();
      const fresh = createJsonlStorage(path, { readOnly: true, recordColumnsMinBytes: 0 });
      const expected = seen(fresh, allIds);
      fresh.close();
      expect(found).toEqual(expected.found);
      expect(expected.parents[6]).toBe(entries.length); // the orphan found its parent
      // The appender's close refreshed the index: read into columns again, it gives the same.
      const again = createJsonlStorage(path, { ...columns, readOnly: true });
      expect(seen(again, allIds)).toEqual(expected);
      expect(again.stats()).toMatchObject({ indexUsed: true, bytesScanned: 0 });
      again.close();
    },
  );
});
