import { constants } from "node:fs";
import { dirname } from "node:path";
import { type SessionFileChange, SessionStorageError } from "../session-storage-error";
import { errnoCode, readFully, type StorageFs, syncDirectory } from "./storage-fs";

/** Open flags for appending to an existing session: never creates the file (no O_CREAT). */
const APPEND_EXISTING = constants.O_WRONLY | constants.O_APPEND;

/** Default of `fileCheckIntervalMs`: how long a change of the session file may go unnoticed. */
export const FILE_CHECK_INTERVAL_MS = 100;

/**
 * Makes sure the JSONL backend only ever appends to the file it loaded (or created, or rewrote): the
 * session's name may have been deleted, renamed over, truncated or appended to by another program
 * (or by a command the agent itself ran). {@link FileChangeGuard.check} compares one `fstat` of the
 * append descriptor with what the storage expects: a file whose name is gone (a deleted file, or one
 * replaced by a rename, has no link left; a descriptor opened by name after a replacement names
 * another inode) or whose size is not exactly the size the storage left (shorter: truncated; longer:
 * someone else appended). Once a change is seen, every later write is refused with the same error.
 *
 * The check runs before the first append of each synchronous run of JavaScript (any `await`, timer or
 * I/O callback between two appends starts a new one: an append that follows a tool's command or a
 * model's reply is always checked), before an append that comes `intervalMs` or more after the last
 * check, before the first append of a descriptor, and on close when something was appended since.
 * The appends of one synchronous burst after the first share its check: they land where a change
 * made meanwhile by another process left the file (after another writer's lines; in the old file for
 * a deleted or replaced one, whose bytes, those appends included, are copied to
 * `<path>.recovered-<time>` when the change is found). Not seen at all: a same-size rewrite in place,
 * and a replacement while another hard link keeps the old file alive.
 */
export class FileChangeGuard {
  /** Inode and device of the file the storage owns; `undefined` before the file exists. */
  private identity: { ino: number; dev: number } | undefined;
  /** `Date.now()` of the last check. */
  private checkedAt = 0;
  /** File size after the append that followed the last check: bytes beyond it were not checked. */
  private verifiedSize = 0;
  /** The last {@link check} looked at the file: {@link appended} moves `verifiedSize`. */
  private justChecked = false;
  /** A check ran in the current synchronous run (cleared by a microtask when the run ends). */
  private checkedThisRun = false;
  private readonly endRun = (): void => {
    this.checkedThisRun = false;
  };
  /** The change found, once one was: writes are refused from then on. */
  changed: SessionStorageError | undefined;

  /** @param intervalMs longest time between two checks within one synchronous run (0: every append). */
  constructor(
    private readonly fs: StorageFs,
    private readonly path: string,
    private readonly intervalMs: number = FILE_CHECK_INTERVAL_MS,
  ) {}

  /** Records the file open on `fd` as the storage's own (after load, creation or rewrite). */
  adopt(fd: number | undefined): void {
    if (fd === undefined) return;
    const stat = this.fs.fstatSync(fd);
    this.identity = { ino: stat.ino, dev: stat.dev };
    this.checkedThisRun = false;
    this.verifiedSize = stat.size;
  }

  /**
   * Opens the session for appending. An existing session is opened without `O_CREAT`, so a name
   * that is gone (`SESSION_FILE_CHANGED`, `deleted`) is never recreated empty; a new one is created
   * exclusively (`ax`) and adopted. The next {@link check} looks at the new descriptor.
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
    this.checkedThisRun = false;
    return fd;
  }

  /** Throws the change found earlier, if any. */
  assertUnchanged(): void {
    if (this.changed !== undefined) throw this.changed;
  }

  /**
   * Before an append: when a check is due (see the class), throws `SESSION_FILE_CHANGED` if the file
   * open on `fd` is no longer the storage's own file of `size` bytes. `readFd` still holds the
   * original open: a deleted or replaced session's bytes are copied from it to
   * `<path>.recovered-<time>` first. Call {@link appended} after the append succeeded.
   */
  check(fd: number, size: number, readFd: number | undefined): void {
    if (this.identity === undefined) return;
    if (this.checkedThisRun && Date.now() - this.checkedAt < this.intervalMs) {
      this.justChecked = false;
      return;
    }
    this.inspect(fd, size, readFd, false);
    this.checkedAt = Date.now();
    this.verifiedSize = size;
    this.justChecked = true;
    if (!this.checkedThisRun) {
      this.checkedThisRun = true;
      queueMicrotask(this.endRun);
    }
  }

  /** The append after a {@link check} succeeded and left the file `size` bytes long. */
  appended(size: number): void {
    if (this.justChecked) this.verifiedSize = size;
    this.justChecked = false;
  }

  /**
   * On close: when something was appended since the last check, checks the file once more and
   * returns the error for a change found (the session's bytes saved first, as {@link check} does),
   * else `undefined`. Never throws.
   */
  checkBeforeClose(
    fd: number | undefined,
    size: number,
    readFd: number | undefined,
  ): SessionStorageError | undefined {
    if (fd === undefined || this.identity === undefined || this.changed !== undefined) return undefined;
    if (size === this.verifiedSize) return undefined;
    try {
      this.inspect(fd, size, readFd, true);
    } catch (error) {
      return SessionStorageError.isInstance(error) ? error : undefined;
    }
    return undefined;
  }

  /** One `fstat`: deleted, replaced, truncated or grown. */
  private inspect(fd: number, size: number, readFd: number | undefined, onClose: boolean): void {
    const identity = this.identity as { ino: number; dev: number };
    const stat = this.fs.fstatSync(fd);
    let change: SessionFileChange | undefined;
    if (stat.nlink === 0 || stat.ino !== identity.ino || stat.dev !== identity.dev) {
      change = this.fs.existsSync(this.path) ? "replaced" : "deleted";
    } else if (stat.size < size) change = "truncated";
    else if (stat.size > size) change = "grown";
    if (change !== undefined) throw this.fail(change, size, readFd, onClose);
  }

  /**
   * Records and returns the error for `change` (also used when the name is gone at open); `onClose`
   * when found by {@link checkBeforeClose} rather than before an append.
   */
  fail(
    change: SessionFileChange,
    size: number,
    readFd: number | undefined,
    onClose = false,
  ): SessionStorageError {
    this.changed = fileChangedError(this.fs, this.path, change, readFd, size, {
      unverifiedBytes: size - this.verifiedSize,
      onClose,
    });
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
  found: { unverifiedBytes: number; onClose: boolean },
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
  const gone = change === "deleted" || change === "replaced";
  const late =
    found.unverifiedBytes <= 0
      ? ""
      : gone
        ? ` The session's last ${found.unverifiedBytes} bytes were appended after the file was last checked and reached the old file only.`
        : ` The session's last ${found.unverifiedBytes} bytes were appended after the file was last checked: they follow the other program's change in the file.`;
  const outcome = found.onClose
    ? "Found on close."
    : "Nothing was appended, and further appends to this session are refused: reopen the session to continue.";
  return new SessionStorageError("SESSION_FILE_CHANGED", `${what[change]} ${outcome}${late}${saved}`, {
    path,
    change,
    ...(recoveredPath === undefined ? {} : { recoveredPath }),
  });
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
