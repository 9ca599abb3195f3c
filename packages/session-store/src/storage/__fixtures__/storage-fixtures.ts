import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StorageFs } from "../internal/storage-fs";
import { nodeStorageFs } from "../internal/storage-fs";
import { SessionStorageError } from "../session-storage-error";

/** A session header for tests. */
export function header(id = "s-test"): Record<string, unknown> {
  return { type: "session", version: 3, id, timestamp: "2025-01-01T00:00:00.000Z", cwd: "/work" };
}

/** A pi-shaped message entry (keys in pi's order). */
export function message(id: string, parentId: string | null, role = "user", text = `text of ${id}`): Record<string, unknown> {
  return {
    type: "message",
    id,
    parentId,
    timestamp: "2025-01-01T00:00:01.000Z",
    message: { role, content: [{ type: "text", text }], timestamp: 1735689601000 },
  };
}

/** `count` chained message entries starting after `parentId`, ids `<prefix>0`, `<prefix>1`, ... */
export function chain(count: number, prefix = "e", parentId: string | null = null): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let parent = parentId;
  for (let i = 0; i < count; i++) {
    const id = `${prefix}${i}`;
    out.push(message(id, parent, i % 2 === 0 ? "user" : "assistant"));
    parent = id;
  }
  return out;
}

/**
 * Entries whose ids take every form a packed id column keeps (8 ASCII characters, shorter, longer,
 * non-ASCII, empty), with a parent no entry has (`nobody-has-this-id`), a label, and the first id
 * repeated by the last entry.
 */
export function hostileIdEntries(): Record<string, unknown>[] {
  return [
    message("a1b2c3d4", null),
    message("e5f6a7b8", "a1b2c3d4", "assistant"),
    message("x", "e5f6a7b8"),
    message("a-much-longer-id", "x", "assistant"),
    message("ünïcödé", "a-much-longer-id"),
    message("", "ünïcödé"),
    message("orphan00", "nobody-has-this-id"),
    { type: "label", id: "lbl", parentId: "a1b2c3d4", targetId: "x", label: "L", timestamp: "t" },
    message("a1b2c3d4", "lbl"),
  ];
}

/** JSONL text of a header and entries. */
export function jsonl(...values: Record<string, unknown>[]): string {
  return values.map((v) => `${JSON.stringify(v)}\n`).join("");
}

/** A fresh temp directory and its cleanup. */
export function tempDir(): { dir: string; file: (name?: string) => string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "arbor-storage-"));
  return {
    dir,
    file: (name = "session.jsonl") => join(dir, name),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The real fs with counters and switchable failures, for durability and failure tests. */
export function instrumentedFs(): {
  fs: StorageFs;
  calls: { fsync: number; write: number };
  failWrite: (mode: "none" | "throw" | "partial-then-throw") => void;
  failFsync: (on: boolean) => void;
  failTruncate: (on: boolean) => void;
} {
  const calls = { fsync: 0, write: 0 };
  let writeMode: "none" | "throw" | "partial-then-throw" = "none";
  let fsyncFails = false;
  let truncateFails = false;
  const enospc = () => Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
  const fs: StorageFs = {
    ...nodeStorageFs,
    writeSync: ((fd: number, buffer: unknown, ...rest: unknown[]) => {
      calls.write++;
      if (writeMode === "throw") throw enospc();
      // A string is written as its UTF-8 bytes; a buffer from `offset` for `length` bytes (the storage
      // writes each line from a reused buffer longer than the line).
      const bytes = typeof buffer === "string" ? Buffer.from(buffer, "utf8") : buffer;
      const offset = typeof buffer !== "string" && typeof rest[0] === "number" ? rest[0] : 0;
      const length =
        typeof buffer !== "string" && typeof rest[1] === "number" ? rest[1] : (bytes as Buffer).length - offset;
      if (writeMode === "partial-then-throw" && Buffer.isBuffer(bytes) && length > 1) {
        const half = Math.floor(length / 2);
        nodeStorageFs.writeSync(fd, bytes, offset, half);
        writeMode = "throw";
        throw enospc();
      }
      return (nodeStorageFs.writeSync as (...args: unknown[]) => number)(fd, buffer, ...rest);
    }) as StorageFs["writeSync"],
    fsyncSync: (fd: number) => {
      if (fsyncFails) throw Object.assign(new Error("EIO: i/o error, fsync"), { code: "EIO" });
      calls.fsync++;
      nodeStorageFs.fsyncSync(fd);
    },
    ftruncateSync: (fd: number, len?: number) => {
      if (truncateFails) throw Object.assign(new Error("EIO: i/o error, ftruncate"), { code: "EIO" });
      nodeStorageFs.ftruncateSync(fd, len);
    },
  };
  return {
    fs,
    calls,
    failWrite: (mode) => {
      writeMode = mode;
    },
    failFsync: (on) => {
      fsyncFails = on;
    },
    failTruncate: (on) => {
      truncateFails = on;
    },
  };
}

/** The `SessionStorageError` that `fn` throws; fails the test when it throws nothing or another error. */
export function storageErrorOf(fn: () => unknown): SessionStorageError {
  try {
    fn();
  } catch (error) {
    if (SessionStorageError.isInstance(error)) return error as SessionStorageError;
    throw error;
  }
  throw new Error("expected a SessionStorageError");
}
