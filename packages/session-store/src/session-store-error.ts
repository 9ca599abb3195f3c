import { ArborError, hasErrorMarker, setErrorMarker } from "@arbor/providers";

const MARKER = Symbol.for("arbor.error.session-store");

/**
 * Stable codes of {@link SessionStoreError}:
 * - `ENTRY_NOT_FOUND`: an entry id (branch target, label target, edit target, fork point) does not exist.
 * - `CONTEXT_EDIT_INVALID`: a context edit was rejected (bad replacement, target not on the active
 *   branch, or a target that contributes no editable content). `reason` says which.
 * - `SESSION_ENTRY_INVALID`: an entry is structurally invalid (thrown when appending; reported as an
 *   issue when loading, where the entry is kept).
 * - `SESSION_HEADER_INVALID`: the first line is not a valid session header.
 * - `SESSION_ID_INVALID`: a custom session id has characters other than letters, digits, `.`, `_`, `-`.
 * - `SESSION_CLOSED`: the store was used after `close()`.
 * - `SESSION_TARGET_INVALID`: a fork, clone or copy has nowhere to go (no backend), or its target
 *   already holds a session.
 */
export type SessionStoreErrorCode =
  | "ENTRY_NOT_FOUND"
  | "CONTEXT_EDIT_INVALID"
  | "SESSION_ENTRY_INVALID"
  | "SESSION_HEADER_INVALID"
  | "SESSION_ID_INVALID"
  | "SESSION_CLOSED"
  | "SESSION_TARGET_INVALID";

/** Why a context edit was rejected. */
export type ContextEditRejection = "replacement-invalid" | "target-not-on-branch" | "target-not-editable";

/** Where an error or issue happened. Every field is optional; messages always include what is known. */
export interface SessionErrorLocation {
  /** Session file path, or the backend's location for a database session (`undefined` for in-memory sessions). */
  sessionFile?: string;
  /** 1-based line in the session file. */
  line?: number;
  /** Entry id. */
  entryId?: string;
}

/** An error thrown by the session store. The message names the session file and entry id. */
export class SessionStoreError extends ArborError {
  declare readonly code: SessionStoreErrorCode;
  /** Session file path, or the backend's location for a database session (URL without password, `#<id>`). */
  readonly sessionFile: string | undefined;
  /** 1-based line, when known. */
  readonly line: number | undefined;
  /** The entry concerned, when there is one. */
  readonly entryId: string | undefined;
  /** For `CONTEXT_EDIT_INVALID`: why the edit was rejected. */
  readonly reason: ContextEditRejection | undefined;

  constructor(
    code: SessionStoreErrorCode,
    message: string,
    location: SessionErrorLocation & { reason?: ContextEditRejection; cause?: unknown } = {},
  ) {
    super(code, `${message} (${describeLocation(location)})`, { cause: location.cause });
    this.name = "SessionStoreError";
    setErrorMarker(this, MARKER);
    this.sessionFile = location.sessionFile;
    this.line = location.line;
    this.entryId = location.entryId;
    this.reason = location.reason;
  }

  /**
   * True for a `SessionStoreError` only (not for other Arbor errors), whichever copy of the package created
   * the error: checks the global-symbol marker `Symbol.for("arbor.error.session-store")`, not the prototype chain.
   */
  static override isInstance(value: unknown): value is SessionStoreError {
    return hasErrorMarker(value, MARKER);
  }
}

/** Formats a location as `session /path/file.jsonl, line 4, entry ab12cd34`. */
export function describeLocation(location: SessionErrorLocation): string {
  const parts = [location.sessionFile ? `session ${location.sessionFile}` : "in-memory session"];
  if (location.line !== undefined) parts.push(`line ${location.line}`);
  if (location.entryId !== undefined) parts.push(`entry ${location.entryId}`);
  return parts.join(", ");
}
