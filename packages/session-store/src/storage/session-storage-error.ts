import { ArborError, hasErrorMarker, setErrorMarker } from "@arbor/providers";

const MARKER = Symbol.for("arbor.error.session-storage");

/**
 * Stable codes of {@link SessionStorageError}:
 * - `SESSION_LOCKED`: another live writer holds the session's lock file (`lockPath`, `holder`).
 * - `SESSION_NOT_FOUND`: a read-only open of a file that does not exist (`path`).
 * - `SESSION_HEADER_INVALID`: the first parsed line is not a `type: "session"` header with a string
 *   `id` (`path`, `line`), or the first append of a new session does not start with a header.
 * - `SESSION_READ_FAILED`: an I/O error while reading the session or its lock (`path`, `cause`).
 * - `SESSION_WRITE_FAILED`: an I/O error while appending, syncing or rewriting (`path`, `cause`). The
 *   file was cut back to its last complete line, unless the message says otherwise.
 * - `SESSION_ENTRY_INVALID`: an entry given to `append`/`rewrite` cannot be written as one JSON line
 *   (not an object, no string `type`, circular, BigInt...). Nothing was written.
 * - `SESSION_LINE_CORRUPT`: `readEntry` found a line that does not parse, or that repeats its `type`
 *   or `id` key with another value further on (`path`, `line`). Lines that fail the load-time checks
 *   are reported in `issues` instead and never reach `readEntry`.
 * - `SESSION_FILE_CHANGED`: the file was changed behind the storage's back. From `readEntry`: another
 *   entry than the one indexed at that line (`path`, `line`, `entryId`). From `append` (checked before
 *   the first append of each synchronous run, see `fileCheckIntervalMs`): the file was deleted,
 *   replaced by another file, truncated or grown by another program (`change`); nothing of that
 *   append was written and every later append is refused the same way. For `deleted` / `replaced`
 *   the session's bytes, still readable through the open file and including the appends made since
 *   the last check, were copied to `recoveredPath`. From `close`: the same, found when something
 *   was appended since the last check.
 * - `SESSION_NOT_LOADED`: a method other than `load`/`close` was called before `load`.
 * - `SESSION_ALREADY_LOADED`: `load` was called a second time.
 * - `SESSION_CLOSED`: the storage was used after `close`.
 * - `SESSION_ENTRY_OUT_OF_RANGE`: `readEntry` with an index outside `records`.
 * - `SESSION_LOCK_LOST` (PostgreSQL): the writer's connection ended (terminated, server restarted,
 *   network), so its lock is gone; entries not yet flushed may be lost. Reopen the session.
 * - `SESSION_EXISTS` (PostgreSQL): an import into a session id that is already taken (`path`).
 * - `SESSION_TARGET_INVALID` (PostgreSQL): a schema name or session location that cannot be used.
 * - `SESSION_OPTIONS_INVALID`: a storage option out of its range (`batchIntervalMs`,
 *   `fileCheckIntervalMs`); nothing was opened.
 */
export type SessionStorageErrorCode =
  | "SESSION_LOCKED"
  | "SESSION_NOT_FOUND"
  | "SESSION_HEADER_INVALID"
  | "SESSION_READ_FAILED"
  | "SESSION_WRITE_FAILED"
  | "SESSION_ENTRY_INVALID"
  | "SESSION_LINE_CORRUPT"
  | "SESSION_FILE_CHANGED"
  | "SESSION_NOT_LOADED"
  | "SESSION_ALREADY_LOADED"
  | "SESSION_CLOSED"
  | "SESSION_ENTRY_OUT_OF_RANGE"
  | "SESSION_LOCK_LOST"
  | "SESSION_EXISTS"
  | "SESSION_TARGET_INVALID"
  | "SESSION_OPTIONS_INVALID";

/** Who holds a session lock, as written in the lock file. */
export interface SessionLockHolder {
  /** Process id of the holder. */
  pid: number;
  /** `os.hostname()` of the holder's machine. */
  hostname: string;
  /** Process start marker (Linux: start time in clock ticks from `/proc/<pid>/stat`), guards against pid reuse. */
  processStart?: string;
  /** ISO time the lock was taken. */
  acquiredAt: string;
  /** Random token that tells two locks of the same process apart. */
  token: string;
}

/** Structured fields a {@link SessionStorageError} may carry. */
export interface SessionStorageErrorFields {
  /** Session file (or `memory:` name) the error is about. */
  path?: string;
  /** 1-based line number in the session file. */
  line?: number;
  /** Entry id concerned. */
  entryId?: string;
  /** Lock file path (`SESSION_LOCKED`). */
  lockPath?: string;
  /** Lock holder (`SESSION_LOCKED`). */
  holder?: SessionLockHolder;
  /** Underlying error (I/O errors, JSON errors). */
  cause?: unknown;
  /** What happened to the file (`SESSION_FILE_CHANGED` from `append`). */
  change?: SessionFileChange;
  /** Where the session's bytes were saved (`SESSION_FILE_CHANGED`, `deleted` or `replaced`). */
  recoveredPath?: string;
}

/**
 * How another program changed an open session file (see `SESSION_FILE_CHANGED`): `deleted` (its name
 * is gone), `replaced` (the name now belongs to another file), `truncated` (shorter than the storage
 * wrote it), `grown` (someone else appended).
 */
export type SessionFileChange = "deleted" | "replaced" | "truncated" | "grown";

/**
 * Thrown by the storage backends. The `code` is stable; the message names the file, the line and what
 * is wrong. A thrown storage error never means lost data: see each code for the state left behind.
 */
export class SessionStorageError extends ArborError {
  override readonly code: SessionStorageErrorCode;
  /** Session file concerned, when there is one. */
  readonly path: string | undefined;
  /** 1-based line number, when the error is about one line. */
  readonly line: number | undefined;
  /** Entry id, when the error is about one entry. */
  readonly entryId: string | undefined;
  /** Lock file, for `SESSION_LOCKED`. */
  readonly lockPath: string | undefined;
  /** Current lock holder, for `SESSION_LOCKED`. */
  readonly holder: SessionLockHolder | undefined;
  /** What another program did to the file, for `SESSION_FILE_CHANGED` from `append`. */
  readonly change: SessionFileChange | undefined;
  /** Where the session's bytes were saved, for a `deleted` or `replaced` file. */
  readonly recoveredPath: string | undefined;

  constructor(code: SessionStorageErrorCode, message: string, fields: SessionStorageErrorFields = {}) {
    super(code, message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.name = "SessionStorageError";
    setErrorMarker(this, MARKER);
    this.code = code;
    this.path = fields.path;
    this.line = fields.line;
    this.entryId = fields.entryId;
    this.lockPath = fields.lockPath;
    this.holder = fields.holder;
    this.change = fields.change;
    this.recoveredPath = fields.recoveredPath;
  }

  /**
   * True for a `SessionStorageError` only (not for other Arbor errors), whichever copy of the package created
   * the error: checks the global-symbol marker `Symbol.for("arbor.error.session-storage")`, not the prototype chain.
   */
  static override isInstance(value: unknown): value is SessionStorageError {
    return hasErrorMarker(value, MARKER);
  }
}
