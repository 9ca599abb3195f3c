import type { SessionIssue } from "./session-issue";
import type { SessionStorage } from "./storage/session-storage";

/** Options shared by every way of opening or creating a {@link SessionStore}. */
export interface SessionStoreOptions {
  /** Working directory written in the header of a new session. Default: `process.cwd()`. */
  cwd?: string;
  /**
   * Id of a new session (default: a fresh UUIDv7). Letters, digits, `.`, `_`, `-`, starting and
   * ending with a letter or digit; otherwise `SESSION_ID_INVALID` is thrown.
   */
  sessionId?: string;
  /** `parentSession` written in the header of a new session. */
  parentSession?: string;
  /**
   * When entries are checked against their type's structure:
   * - `"lazy"` (default): the first time each entry is read (for the projection, a lookup, a walk);
   * - `"full"`: every entry at open (reads the whole session once; nothing is kept in memory).
   * Invalid entries are reported as issues and kept.
   */
  validate?: "lazy" | "full";
  /**
   * Called for each problem as it is found (corrupt lines at open, invalid entries when read).
   *
   * Contract: must not throw; called synchronously, in the order problems are found.
   */
  onIssue?: (issue: SessionIssue) => void;
  /**
   * pi's behaviour for new sessions: write nothing (header included) until the session holds a user
   * or assistant message; entries appended before stay in memory only. Default `false`: the header
   * and every entry are written as they are appended.
   */
  deferFileUntilConversation?: boolean;
  /** Clock for entry and header timestamps (tests). Default: `() => new Date()`. */
  now?: () => Date;
  /** Candidate entry ids (tests). Default: 8 random hex characters; collisions are retried. */
  idSource?: () => string;
  /**
   * Opens the backend of a session this store creates (fork, clone, copy): `path` is the new file
   * for file sessions, `undefined` in memory. The factories set it; with a custom backend, set it or
   * pass `storage` to those calls.
   */
  createStorage?: (path: string | undefined) => SessionStorage;
}

/** Where a new session made from this one (fork, clone, copy) goes. */
export interface NewSessionTarget {
  /** Exact file path of the new session. */
  path?: string;
  /** Directory for the new file (named `<timestamp>_<id>.jsonl`). Default: this session's directory. */
  dir?: string;
  /** A ready backend for the new session (overrides `path` / `dir`). */
  storage?: SessionStorage;
  /** Working directory of the new session. Default: this session's. */
  cwd?: string;
  /** Id of the new session. Default: a fresh UUIDv7. */
  sessionId?: string;
}
