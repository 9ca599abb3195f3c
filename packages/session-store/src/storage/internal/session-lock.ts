import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { formatTimestamp } from "../../internal/format-timestamp";
import { nodeCrypto } from "../../internal/node-crypto";
import { type SessionLockHolder, SessionStorageError } from "../session-storage-error";
import { errnoCode, type StorageFs } from "./storage-fs";

/** A lock file younger than this with unreadable content is assumed to be in the middle of being written. */
const UNREADABLE_LOCK_GRACE_MS = 5_000;

/** A held session lock. */
export interface SessionLock {
  readonly lockPath: string;
  readonly holder: SessionLockHolder;
  /** Removes the lock file if it is still ours. Idempotent, never throws. */
  release(): void;
}

const held = new Set<SessionLock>();
let exitHookInstalled = false;

/**
 * Takes the writer lock of `sessionPath`: a file `<sessionPath>.lock`, created atomically (see `createLockFile`), holding the
 * pid, hostname and process start of the writer. A lock whose holder is dead (same host, pid gone or
 * reused) is stale: it is moved aside and taken over. Throws `SESSION_LOCKED` while a live process
 * (this one included) holds it, `SESSION_READ_FAILED` on I/O errors.
 */
export function acquireSessionLock(fs: StorageFs, sessionPath: string): SessionLock {
  const lockPath = `${sessionPath}.lock`;
  for (let attempt = 0; attempt < 5; attempt++) {
    const holder = ownHolder();
    let created: boolean;
    try {
      created = createLockFile(fs, lockPath, holder);
    } catch (error) {
      throw new SessionStorageError(
        "SESSION_READ_FAILED",
        `Cannot create lock file ${lockPath}: ${String(error)}`,
        { path: sessionPath, lockPath, cause: error },
      );
    }
    if (created) return register(fs, lockPath, holder);
    const current = readHolder(fs, lockPath);
    if (current === "missing") continue; // released between our attempts: try again
    if (current === "unreadable" || isHolderAlive(current)) {
      const who = current === "unreadable" ? "a process (lock file being written)" : describeHolder(current);
      throw new SessionStorageError(
        "SESSION_LOCKED",
        `${sessionPath} is locked by ${who}: only one writer may append to a session. Lock file: ${lockPath}.`,
        { path: sessionPath, lockPath, ...(current === "unreadable" ? {} : { holder: current }) },
      );
    }
    breakStaleLock(fs, lockPath, current);
  }
  throw new SessionStorageError(
    "SESSION_LOCKED",
    `${sessionPath} is locked: the lock file ${lockPath} keeps changing.`,
    {
      path: sessionPath,
      lockPath,
    },
  );
}

/**
 * Creates `lockPath` holding `holder`, or returns false when it already exists. The holder is written
 * to a private temporary file first and hard-linked into place, so a competing process never sees a
 * lock file without its holder (link fails with EEXIST atomically, like O_EXCL). File systems without
 * hard links fall back to O_EXCL create + write. Other I/O errors are thrown.
 */
function createLockFile(fs: StorageFs, lockPath: string, holder: SessionLockHolder): boolean {
  const content = `${JSON.stringify(holder)}\n`;
  const temp = `${lockPath}.new-${process.pid}-${holder.token}`;
  let linked: boolean | "unsupported";
  try {
    writeNewFile(fs, temp, content);
    try {
      fs.linkSync(temp, lockPath);
      linked = true;
    } catch (error) {
      const code = errnoCode(error);
      if (code === "EEXIST") linked = false;
      else if (code === "EPERM" || code === "ENOTSUP" || code === "EOPNOTSUPP" || code === "ENOSYS") {
        linked = "unsupported";
      } else throw error;
    }
  } finally {
    try {
      fs.unlinkSync(temp);
    } catch {
      // Never created, or already gone.
    }
  }
  if (linked !== "unsupported") return linked;
  try {
    writeNewFile(fs, lockPath, content);
    return true;
  } catch (error) {
    if (errnoCode(error) === "EEXIST") return false;
    throw error;
  }
}

/** Creates `path` exclusively (O_EXCL) and writes `content` to it. */
function writeNewFile(fs: StorageFs, path: string, content: string): void {
  const fd = fs.openSync(path, "wx");
  try {
    fs.writeSync(fd, content);
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether a lock holder is still running. A holder on another host is assumed alive (we cannot tell). */
export function isHolderAlive(holder: SessionLockHolder): boolean {
  if (holder.hostname !== hostname()) return true;
  // Never signal pid 0 or negative pids (process groups): such a lock cannot name a live writer.
  if (!Number.isInteger(holder.pid) || holder.pid <= 0) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if (errnoCode(error) === "ESRCH") return false;
  }
  // The pid exists; make sure it is the same process and not a reuse of its pid.
  const start = processStartOf(holder.pid);
  return holder.processStart === undefined || start === undefined || start === holder.processStart;
}

function register(fs: StorageFs, lockPath: string, holder: SessionLockHolder): SessionLock {
  const lock: SessionLock = {
    lockPath,
    holder,
    release() {
      if (!held.delete(lock)) return;
      const current = readHolder(fs, lockPath);
      if (typeof current === "object" && current.token === holder.token) {
        try {
          fs.unlinkSync(lockPath);
        } catch {
          // Already gone; nothing to release.
        }
      }
    },
  };
  held.add(lock);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const l of [...held]) l.release();
    });
  }
  return lock;
}

/** Moves a stale lock aside, then checks it really was the stale one (not a fresh lock of a racer). */
function breakStaleLock(fs: StorageFs, lockPath: string, stale: SessionLockHolder): void {
  const aside = `${lockPath}.stale-${process.pid}-${nodeCrypto().randomBytes(4).toString("hex")}`;
  try {
    fs.renameSync(lockPath, aside);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return; // someone else removed it first
    throw new SessionStorageError(
      "SESSION_READ_FAILED",
      `Cannot remove stale lock ${lockPath}: ${String(error)}`,
      {
        lockPath,
        cause: error,
      },
    );
  }
  const moved = readHolder(fs, aside);
  if (typeof moved === "object" && moved.token !== stale.token) {
    // We moved a live lock that a racing process had just taken: put it back.
    try {
      fs.linkSync(aside, lockPath);
    } catch {
      // The path was taken again meanwhile; the next attempt will see the current holder.
    }
  }
  try {
    fs.unlinkSync(aside);
  } catch {
    // Best effort: a leftover `.stale-*` file is harmless.
  }
}

function readHolder(fs: StorageFs, lockPath: string): SessionLockHolder | "missing" | "unreadable" {
  let text: string;
  try {
    text = fs.readFileSync(lockPath, "utf8");
  } catch (error) {
    return errnoCode(error) === "ENOENT" ? "missing" : "unreadable";
  }
  try {
    const value = JSON.parse(text) as Partial<SessionLockHolder>;
    if (
      typeof value.pid === "number" &&
      typeof value.hostname === "string" &&
      typeof value.token === "string"
    ) {
      return value as SessionLockHolder;
    }
  } catch {
    // fall through: judged by age below
  }
  try {
    const age = Date.now() - fs.statSync(lockPath).mtimeMs;
    if (age < UNREADABLE_LOCK_GRACE_MS) return "unreadable";
  } catch {
    return "missing";
  }
  // An old, unreadable lock cannot name a live holder: treat it as stale with an impossible pid.
  return { pid: -1, hostname: hostname(), acquiredAt: "", token: `unreadable:${text.length}` };
}

let tokensMade = 0;

/**
 * A token no other lock of this process (a counter) or of another (the time and 52 random bits) will
 * hold. Not secret: it only tells locks apart. Not from `crypto`, whose first use costs the open a
 * quarter of a millisecond of OpenSSL start-up.
 */
function lockToken(): string {
  tokensMade++;
  return `${Date.now().toString(36)}-${tokensMade.toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

let ownStart: string | undefined | null = null;

function ownHolder(): SessionLockHolder {
  if (ownStart === null) ownStart = processStartOf(process.pid);
  return {
    pid: process.pid,
    hostname: hostname(),
    ...(ownStart === undefined ? {} : { processStart: ownStart }),
    acquiredAt: formatTimestamp(Date.now()),
    token: lockToken(),
  };
}

/** Linux: the process start time in clock ticks since boot (field 22 of /proc/<pid>/stat). */
function processStartOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8").trim();
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19];
  } catch {
    return undefined;
  }
}

function describeHolder(holder: SessionLockHolder): string {
  return `process ${holder.pid} on ${holder.hostname} (since ${holder.acquiredAt || "unknown"})`;
}
