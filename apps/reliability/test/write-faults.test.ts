import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ArborError } from "@arbor/providers";
import {
  createJsonlStorage,
  type DurabilityMode,
  type JsonlStorageOptions,
  openSessionStore,
  SessionStorageError,
} from "@arbor/session-store";
import { afterAll, describe, expect, it } from "vitest";
import { createFaultFs, type Fault, type FaultFs } from "../src/create-fault-fs";
import { recordFigures } from "../src/figures";
import { createSeededRandom } from "../src/seeded-random";

/**
 * Write failures (a full disk, an I/O error) injected under the JSONL backend through its internal
 * `fs` option. Every failure must surface as a typed SESSION_WRITE_FAILED carrying the system error,
 * and leave a session that reopens with every acknowledged entry and nothing else.
 */
const root = mkdtempSync(join(tmpdir(), "arbor-write-faults-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let fileCounter = 0;
const freshFile = () => join(root, `s-${fileCounter++}.jsonl`);

const HEADER = {
  type: "session",
  version: 3,
  id: "faults",
  timestamp: "2025-01-01T00:00:00.000Z",
  cwd: "/f",
};
function entry(n: number, parentId: string | null): Record<string, unknown> {
  return {
    type: "message",
    id: `e${String(n).padStart(7, "0")}`,
    parentId,
    timestamp: "2025-01-01T00:00:01.000Z",
    message: { role: "user", content: `entry ${n} ${"x".repeat(n % 300)}`, timestamp: 1_735_689_601_000 + n },
  };
}

function open(
  file: string,
  faults: FaultFs | undefined,
  durability: DurabilityMode = "always",
  extra: JsonlStorageOptions = {},
) {
  const storage = createJsonlStorage(file, {
    durability,
    ...extra,
    ...(faults ? { fs: faults.fs } : {}),
  } as JsonlStorageOptions);
  return { storage, loaded: storage.load() };
}

/** The errno code somewhere in the cause chain (`ENOSPC`, `EIO`). */
function systemCode(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === "string" && /^E[A-Z]+$/.test(e.code)) return e.code;
  }
  return undefined;
}

function catchError(action: () => unknown): SessionStorageError {
  try {
    action();
  } catch (error) {
    expect(ArborError.isInstance(error), String(error)).toBe(true);
    return error as SessionStorageError;
  }
  throw new Error("expected a typed error");
}

/** Reopens with a healthy disk and returns the entries (every line must parse, no issue left). */
function reopenEntries(file: string): Record<string, unknown>[] {
  const { storage, loaded } = open(file, undefined);
  const entries = loaded.records.map((_, i) => storage.readEntry(i));
  storage.close();
  const text = readFileSync(file, "utf8");
  expect(text.endsWith("\n")).toBe(true);
  for (const line of text.slice(0, -1).split("\n")) JSON.parse(line);
  return entries;
}

describe("write failures", () => {
  it.each([
    ["ENOSPC on a whole line", { op: "write", code: "ENOSPC" }],
    ["ENOSPC after part of a line reached the disk", { op: "write", code: "ENOSPC", partialBytes: 37 }],
    ["EIO on write", { op: "write", code: "EIO" }],
    ["EIO on fsync (durability always)", { op: "fsync", code: "EIO" }],
  ] as [string, Fault][])(
    "%s: typed error, the append is rolled back, the session stays usable",
    (_, fault) => {
      const file = freshFile();
      const faults = createFaultFs(file);
      const { storage } = open(file, faults);
      const first = [HEADER, entry(0, null), entry(1, "e0000000")];
      storage.append(first);
      const sizeBefore = statSync(file).size;
      faults.inject(fault);
      // Three entries in one call: the fault hits the first write or the final fsync.
      const error = catchError(() =>
        storage.append([entry(2, "e0000001"), entry(3, "e0000002"), entry(4, "e0000003")]),
      );
      expect(error.code).toBe("SESSION_WRITE_FAILED");
      expect(systemCode(error)).toBe(fault.code);
      expect(error.message).toContain(file);
      expect(faults.fired).toBeGreaterThan(0);
      expect(statSync(file).size).toBe(sizeBefore);
      expect(storage.readEntry(1)).toEqual(entry(1, "e0000000"));
      expect(() => storage.readEntry(2)).toThrow(SessionStorageError);
      // The disk is fine again: the next append works and lands right after the last good line.
      storage.append([entry(2, "e0000001")]);
      storage.close();
      expect(reopenEntries(file)).toEqual([entry(0, null), entry(1, "e0000000"), entry(2, "e0000001")]);
    },
  );

  it("a failing header write leaves no file content behind and can be retried", () => {
    const file = freshFile();
    const faults = createFaultFs(file);
    const { storage } = open(file, faults);
    faults.inject({ op: "write", code: "ENOSPC", partialBytes: 10 });
    const error = catchError(() => storage.append([HEADER, entry(0, null)]));
    expect(error.code).toBe("SESSION_WRITE_FAILED");
    expect(systemCode(error)).toBe("ENOSPC");
    expect(statSync(file).size).toBe(0);
    storage.append([HEADER, entry(0, null)]);
    storage.close();
    expect(reopenEntries(file)).toEqual([entry(0, null)]);
  });

  it("when even the cut-back fails, appends are refused until reopening quarantines the torn line", () => {
    const file = freshFile();
    const faults = createFaultFs(file);
    const { storage } = open(file, faults);
    storage.append([HEADER, entry(0, null)]);
    faults.inject({ op: "write", code: "EIO", partialBytes: 20 });
    faults.inject({ op: "truncate", code: "EIO" });
    const error = catchError(() => storage.append([entry(1, "e0000000")]));
    expect(error.code).toBe("SESSION_WRITE_FAILED");
    expect(error.message).toMatch(/reopen/i);
    faults.clear();
    const refused = catchError(() => storage.append([entry(1, "e0000000")]));
    expect(refused.code).toBe("SESSION_WRITE_FAILED");
    storage.close();
    expect(readFileSync(file, "utf8").endsWith("\n")).toBe(false); // the torn bytes are still there
    const { storage: reopened, loaded } = open(file, undefined);
    expect(loaded.issues.map((i) => i.code)).toEqual(["SESSION_TAIL_TORN"]);
    expect(readFileSync(loaded.issues[0]?.quarantinePath as string).length).toBe(20);
    reopened.append([entry(1, "e0000000")]);
    reopened.close();
    expect(reopenEntries(file)).toEqual([entry(0, null), entry(1, "e0000000")]);
  });

  it("a failed background fsync (batched) is raised by the next append, which is rolled back", async () => {
    const file = freshFile();
    const faults = createFaultFs(file);
    // A wide interval, so that a loaded machine cannot stretch two back-to-back appends across it.
    const { storage } = open(file, faults, "batched", { batchIntervalMs: 250 });
    storage.append([HEADER, entry(0, null)]);
    await new Promise((resolve) => setTimeout(resolve, 300)); // the interval passed: next append syncs
    storage.append([entry(1, "e0000000")]); // synced at once (the interval had passed)
    faults.inject({ op: "fsync", code: "EIO" });
    storage.append([entry(2, "e0000001")]); // within the interval: the timer will sync it
    await new Promise((resolve) => setTimeout(resolve, 400));
    const error = catchError(() => storage.append([entry(3, "e0000002")]));
    expect(error.code).toBe("SESSION_WRITE_FAILED");
    expect(systemCode(error)).toBe("EIO");
    storage.close();
    // Entry 2 was handed to the OS before its sync failed: it is in the file; entry 3 is not.
    expect(reopenEntries(file).map((e) => e.id)).toEqual(["e0000000", "e0000001", "e0000002"]);
  });

  it("a read error while loading is a typed SESSION_READ_FAILED and changes nothing", () => {
    const file = freshFile();
    const { storage } = open(file, undefined);
    storage.append([HEADER, entry(0, null)]);
    storage.close();
    const before = readFileSync(file);
    const faults = createFaultFs(file);
    faults.inject({ op: "read", code: "EIO" });
    const error = catchError(() => open(file, faults));
    expect(error.code).toBe("SESSION_READ_FAILED");
    expect(systemCode(error)).toBe("EIO");
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(readdirSync(root).filter((n) => n.startsWith(file.split("/").pop() as string))).not.toContain(
      `${file.split("/").pop()}.lock`,
    );
  });

  it("through the session store: the failed append leaves leaf, entries and projection unchanged", () => {
    const file = freshFile();
    const faults = createFaultFs(file);
    const store = openSessionStore(file, {
      cwd: "/f",
      storage: { durability: "always", fs: faults.fs } as JsonlStorageOptions,
    });
    store.appendMessage({ role: "user", content: "one", timestamp: 1 });
    const kept = store.appendMessage({ role: "user", content: "two", timestamp: 2 });
    const projection = store.getProjection().messages.length;
    faults.inject({ op: "write", code: "ENOSPC", partialBytes: 5 });
    const error = catchError(() => store.appendMessage({ role: "user", content: "three", timestamp: 3 }));
    expect(error.code).toBe("SESSION_WRITE_FAILED");
    expect(store.leafId).toBe(kept.id);
    expect(store.getEntries()).toHaveLength(2);
    expect(store.getProjection().messages).toHaveLength(projection);
    const third = store.appendMessage({ role: "user", content: "three", timestamp: 3 });
    expect(third.parentId).toBe(kept.id);
    store.close();
    const reopened = openSessionStore(file, { cwd: "/f" });
    expect(reopened.issues).toEqual([]);
    expect(reopened.getBranch().map((e) => (e.type === "message" ? e.message : undefined))).toEqual([
      { role: "user", content: "one", timestamp: 1 },
      { role: "user", content: "two", timestamp: 2 },
      { role: "user", content: "three", timestamp: 3 },
    ]);
    reopened.close();
  });

  it("a seeded storm of faults never loses an acknowledged entry nor keeps a rolled-back one", () => {
    const SEED = 0x5eed_e10;
    const APPENDS = 600;
    const rng = createSeededRandom(SEED);
    const file = freshFile();
    let faults = createFaultFs(file);
    let { storage } = open(file, faults, rng.pick(["always", "batched", "never"] as const));
    storage.append([HEADER]);
    const acknowledged: Record<string, unknown>[] = [];
    const tally = { faultedCalls: 0, typedErrors: 0, reopens: 0, quarantined: 0 };
    let n = 0;
    for (let call = 0; call < APPENDS; call++) {
      const batch = Array.from({ length: rng.between(1, 3) }, () => {
        const parent = (acknowledged.at(-1)?.id as string | undefined) ?? null;
        return entry(n++, parent);
      });
      if (rng.chance(0.2)) {
        const op = rng.pick(["write", "write", "fsync", "write+truncate"] as const);
        const code = rng.pick(["ENOSPC", "EIO"]);
        if (op === "write+truncate") {
          faults.inject({ op: "write", code, partialBytes: rng.between(1, 60) });
          faults.inject({ op: "truncate", code: "EIO" });
        } else if (op === "write")
          faults.inject({ op, code, partialBytes: rng.chance(0.5) ? rng.between(1, 60) : 0 });
        else faults.inject({ op, code });
      }
      const firedBefore = faults.fired;
      let broken = false;
      try {
        storage.append(batch);
        acknowledged.push(...batch);
      } catch (error) {
        expect(ArborError.isInstance(error)).toBe(true);
        expect((error as SessionStorageError).code).toBe("SESSION_WRITE_FAILED");
        expect(systemCode(error)).toMatch(/^(ENOSPC|EIO)$/);
        tally.typedErrors++;
        broken = /reopen/i.test((error as Error).message);
        n -= batch.length; // the ids are reused by the next call
      }
      if (faults.fired > firedBefore) tally.faultedCalls++;
      faults.clear();
      if (broken || rng.chance(0.05)) {
        tally.reopens++;
        storage.close();
        faults = createFaultFs(file);
        const reopened = open(file, faults, rng.pick(["always", "batched", "never"] as const));
        storage = reopened.storage;
        if (reopened.loaded.issues.some((i) => i.code === "SESSION_TAIL_TORN")) tally.quarantined++;
        expect(reopened.loaded.issues.every((i) => i.code === "SESSION_TAIL_TORN")).toBe(true);
      }
    }
    storage.close();
    const entries = reopenEntries(file);
    expect(entries).toEqual(acknowledged);
    // Every call a fault hit failed with a typed error, and no other call failed.
    expect(tally.typedErrors).toBe(tally.faultedCalls);
    expect(tally.typedErrors).toBeGreaterThan(50);
    expect(tally.quarantined).toBeGreaterThan(0);
    recordFigures("write-faults", {
      seed: SEED,
      appendCalls: APPENDS,
      appendCallsHitByAFault: tally.faultedCalls,
      typedErrors: tally.typedErrors,
      reopens: tally.reopens,
      tornLinesQuarantinedOnReopen: tally.quarantined,
      acknowledgedEntries: acknowledged.length,
      acknowledgedEntriesLost: 0,
      rolledBackEntriesKept: 0,
    });
  });
});
