import { constants } from "node:fs";
import { dirname } from "node:path";
import { type SessionFileChange, SessionStorageError } from "../session-storage-error";
import { errnoCode, readFully, type StorageFs, syncDirectory } from "./storage-fs";

/** Open flags for appending to an existing session: never creates the file (no O_CREAT). */
const APPEND_EXISTING = constants.O_WRONLY | constants.O_APPEND;

/**
 * Makes sure the JSONL backend only ever appends to the file it loaded (or created, or rewrote): the
 * session's name may have been deleted, renamed over, truncated or appended to by another program
 * (or by a command the agent itself ran). Before every write, {@link FileChangeGuard.check} compares
 * one `fstat` of the append descriptor with what the storage expects: a file whose name is gone (a
 * deleted file, or one replaced by a rename, has no link left; a descriptor opened by name after a
 * replacement names another inode) or whose size is not exactly the size the storage left (shorter:
 * truncated; longer: someone else appended). Once a change is seen, every later write is refused
 * with the same error. Not seen: a same-size rewrite in place, and a replacement while another hard
 * link keeps the old file alive.
 */
export class FileChangeGuard {
  /** Inode and device of the file the storage owns; `undefined` before the file exists. */
  private identity: { ino: number; dev: number } | undefined;
  /** The change found, once one was: writes are refused from then on. */
  changed: SessionStorageError | undefined;

  constructor(
    private readonly fs: StorageFs,
    private readonly path: string,
  ) {}

  /** Records the file open on `fd` as the storage's own (after load, creation or rewrite). */
  adopt(fd: number | undefined): void {
    if (fd === undefined) return;
    const stat = this.fs.fstatSync(fd);
    this.identity = { ino: stat.ino, dev: stat.dev };
  }

  /**
   * Opens the session for appending. An existing session is opened without `O_CREAT`, so a name
   * that is gone (`SESSION_FILE_CHANGED`, `deleted`) is never recreated empty; a new one is created
   * exclusively (`ax`) and adopted.
   *
   * @throws SessionStorageError `SESSION_FILE_CHANGED`, or `SESSION_WRITE_FAILED` naming the file.
   */
  openForAppend(exists: boolean, size: number, readFd: number | undefined): number {
    let fd: number;
    try {
      fd = this.fs.openSync(this.path, exists ? APPEND_EXISTING : "ax");
    } catch (error) {
      if (exists && errnoCode(error) === "ENOENT") throw this.fail("deleted", size, readFd);
      throw new SessionStorageError(
        "SESSION_WRITE_FAILED",
        `Cannot open ${this.path} for appending: ${String(error)}. Nothing was written.`,
        { path: this.path, cause: error },
      );
    }
    if (!exists) this.adopt(fd);
    return fd;
  }

  /** Throws the change found earlier, if any. */
  assertUnchanged(): void {
    if (this.changed !== undefined) throw this.changed;
  }

  /**
   * Throws `SESSION_FILE_CHANGED` when the file open on `fd` is no longer the storage's own file of
   * `size` bytes. `readFd` still holds the original open: a deleted or replaced session's bytes are
   * copied from it to `<path>.recovered-<time>` first.
   */
  check(fd: number, size: number, readFd: number | undefined): void {
    if (this.identity === undefined) return;
    const stat = this.fs.fstatSync(fd);
    let change: SessionFileChange | undefined;
    if (stat.nlink === 0 || stat.ino !== this.identity.ino || stat.dev !== this.identity.dev) {
      change = this.fs.existsSync(this.path) ? "replaced" : "deleted";
    } else if (stat.size < size) change = "truncated";
    else if (stat.size > size) change = "grown";
    if (change !== undefined) throw this.fail(change, size, readFd);
  }

  /** Records and returns the error for `change` (also used when the name is gone at open). */
  fail(change: SessionFileChange, size: number, readFd: number | undefined): SessionStorageError {
    this.changed = fileChangedError(this.fs, this.path, change, readFd, size);
    return this.changed;
  }
}

/**
 * The error for a detected change. For a deleted or replaced file, first copies the session's bytes
 * (still readable through `readFd`, which holds the original file open) to `<path>.recovered-<time>`
 * (synced), so nothing is lost with the name; the message says where, or why it could not.
 */
function fileChangedError(
  fs: StorageFs,
  path: string,
  change: SessionFileChange,
  readFd: number | undefined,
  size: number,
): SessionStorageError {
  const actual = change === "truncated" || change === "grown" ? sizeOf(fs, path) : undefined;
  let saved = "";
  let recoveredPath: string | undefined;
  if ((change === "deleted" || change === "replaced") && readFd !== undefined) {
    try {
      recoveredPath = saveRecoveredCopy(fs, path, readFd, size);
      saved = ` The session's ${size} bytes, still held open, were saved to ${recoveredPath} (rename it to a .jsonl file to resume it).`;
    } catch (error) {
      saved = ` Saving the session's bytes beside it failed (${String(error)}).`;
    }
  }
  const what: Record<SessionFileChange, string> = {
    deleted: `${path} was deleted while the session was open (by another program, or a command the agent ran).`,
    replaced: `${path} was replaced by another file while the session was open; that file is not this session.`,
    truncated: `${path} was truncated by another program while the session was open (${size} bytes written, ${actual ?? "fewer"} left): the entries after the cut are gone from the file.`,
    grown: `${path} grew by ${actual === undefined ? "some" : actual - size} bytes that another program wrote while the session was open (pi, or a second agent without the lock).`,
  };
  return new SessionStorageError(
    "SESSION_FILE_CHANGED",
    `${what[change]} Nothing was appended, and further appends to this session are refused: reopen the session to continue.${saved}`,
    { path, change, ...(recoveredPath === undefined ? {} : { recoveredPath }) },
  );
}

function sizeOf(fs: StorageFs, path: string): number | undefined {
  try {
    return fs.statSync(path).size;
  } catch {
    return undefined;
  }
}

function saveRecoveredCopy(fs: StorageFs, path: string, readFd: number, size: number): string {
  const target = `${path}.recovered-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  const out = fs.openSync(target, "wx", 0o600);
  try {
    const buf = Buffer.allocUnsafe(Math.min(size, 8 * 1024 * 1024) || 1);
    for (let pos = 0; pos < size; ) {
      const n = readFully(fs, readFd, buf, 0, Math.min(buf.length, size - pos), pos);
      if (n === 0) break;
      let written = 0;
      while (written < n) written += fs.writeSync(out, buf, written, n - written);
      pos += n;
    }
    fs.fsyncSync(out);
  } finally {
    fs.closeSync(out);
  }
  syncDirectory(fs, dirname(path));
  return target;
}
