/**
 * The storage seam of the session store. A backend keeps the lines of one session (a header and
 * entries in file order) and hands out light records so that the store can walk the tree without
 * parsing every entry. Backends: JSONL file (default) and in-memory.
 *
 * All methods are synchronous: appends are small, and a synchronous write makes "append returned"
 * mean "the bytes were handed to the OS" (plus fsync per the durability mode).
 */

/**
 * What the store needs to know about an entry without materializing it. Extracted from the line by
 * the backend (for JSONL: a validated fast scan with a full `JSON.parse` fallback).
 */
export interface StoredEntryRecord {
  /** Entry id (`undefined` only for version-1 files, whose entries have no ids yet). */
  id: string | undefined;
  /** Parent id; `null` for a root. `undefined` only for version-1 files. */
  parentId: string | null | undefined;
  /** Entry `type` field (`message`, `compaction`, ... or an unknown type, kept as is). */
  type: string;
  /** For `message` entries: `message.role` when present. */
  role?: string;
}

/** A problem found while loading. The offending line is never removed from the file. */
export interface StorageLoadIssue {
  /** Stable code: `SESSION_LINE_CORRUPT` (a bad line in the middle) or `SESSION_TAIL_TORN` (torn last line, quarantined). */
  code: "SESSION_LINE_CORRUPT" | "SESSION_TAIL_TORN";
  /** 1-based line number in the file. */
  line: number;
  /** What is wrong, naming the file and line. */
  message: string;
  /** For a torn tail: where the bytes were copied before the file was cut back to the last full line. */
  quarantinePath?: string;
  /** Byte offset of the line in the file (JSONL backend). */
  byteOffset?: number;
  /** Byte length of the line without its newline (JSONL backend). */
  byteLength?: number;
}

/** Result of {@link SessionStorage.load}. */
export interface StorageLoadResult {
  /** The parsed header line (`type: "session"`), or `undefined` for an empty/new session. */
  header: Record<string, unknown> | undefined;
  /**
   * One record per valid entry line, in file order (header, blank and corrupt lines excluded). The
   * array belongs to the caller: the backend keeps its own copy. A later line of `type: "session"` (pi
   * ignores such lines) is kept as a record of that type rather than dropped.
   */
  records: StoredEntryRecord[];
  /** Corrupt and torn lines, in file order. */
  issues: StorageLoadIssue[];
  /**
   * Optional, same length as `records`: `parentIndex[i]` is the index in `records` of the entry whose
   * id is `records[i].parentId` (the last one with that id, as pi's `byId` map resolves it; lines of
   * `type: "session"` never count), or -1 for `parentId: null`, -2 when there is no `parentId` field
   * (version 1), -3 when no entry has that id. Lets the store walk the tree without building an id map.
   * Both shipped backends provide it; the array belongs to the caller.
   */
  parentIndex?: Int32Array;
  /**
   * Optional: whether two records share an id (lines of `type: "session"` never count). `false` lets
   * the store skip its own check for shared ids (`getTreeLinks`). All three shipped backends provide it.
   */
  repeatedIds?: boolean;
}

/** A storage backend for one session. */
export interface SessionStorage {
  /** `jsonl`, `memory`, or a custom backend's name. */
  readonly kind: string;
  /** File path for file backends; `undefined` otherwise. */
  readonly path: string | undefined;
  /**
   * Optional: where the session lives when it has no file path, as messages name it (a database
   * backend: `postgresql://host/db#<session id>`, never a password). The store's errors and issues
   * carry it as their `sessionFile`; without it (and without `path`) they say "in-memory session".
   */
  readonly location?: string;
  /**
   * Reads the session. Call once, before anything else (a second call throws
   * `SESSION_ALREADY_LOADED`). Throws a typed error when the session cannot be read at all (missing
   * header, locked by another writer, I/O error). Corrupt lines are reported in `issues`, never thrown
   * and never dropped from the file. A session that does not exist yet loads as empty
   * (`header: undefined`, no records) and is created by the first `append`.
   */
  load(): StorageLoadResult;
  /**
   * Returns the full parsed entry at `index` (0-based, in `records` order; entries appended after
   * `load` take the next indices in append order). May parse on demand, so each call may return a new
   * object: do not rely on identity. Throws `SESSION_ENTRY_OUT_OF_RANGE`, `SESSION_LINE_CORRUPT` (a line
   * that passed the load-time checks but does not parse), `SESSION_FILE_CHANGED` (the line no longer
   * holds the indexed entry) or `SESSION_READ_FAILED`.
   */
  readEntry(index: number): Record<string, unknown>;
  /**
   * Optional, a read seam for callers that need only part of an entry (a listing's preview): the
   * bytes of the line of loaded entry `index` as stored (UTF-8 JSON, newline excluded), not parsed and
   * not checked in any way, so the caller must treat them as hostile. Returns `undefined` when the
   * backend cannot give them now (no such index, an entry appended after `load`, a line no longer
   * there, one not fetched yet): `readEntry` then reads the entry or says what is wrong. The bytes may
   * be a view of a buffer the backend reuses: they are valid until the next call to the storage. Both
   * shipped file and memory backends provide it. Throws `SESSION_READ_FAILED` on an I/O error.
   */
  readEntryLine?(index: number): Uint8Array | undefined;
  /**
   * Optional: the 1-based file line of the entry at `index`, or `undefined` when unknown. The store
   * uses it to name the line of an invalid entry in its issues (added for the store core).
   */
  lineOf?(index: number): number | undefined;
  /**
   * Optional: index (in `records` order, appended entries included) of the last entry with `id`, or
   * `undefined` when none; `type: "session"` lines never count. Backed by a compact hash table, so
   * the store needs no `Map` of every id. Both shipped backends provide it.
   */
  indexOfId?(id: string): number | undefined;
  /**
   * Appends entries as lines, one write per entry, durable per the backend's durability mode when this
   * returns. When the session has no header yet, `entries[0]` must be the header (`type: "session"`
   * with a string `id`); it is written first and is not a record. All or nothing: on failure the
   * entries of this call are removed again (the file is cut back to its size before the call) and a
   * typed error is thrown (`SESSION_ENTRY_INVALID` before anything is written, `SESSION_WRITE_FAILED`
   * on I/O errors, `SESSION_HEADER_INVALID` when the header is missing).
   */
  append(entries: readonly Record<string, unknown>[]): void;
  /**
   * Replaces the whole session (header + entries), used after migrating an old version. The original
   * is kept (for JSONL: renamed to a backup file whose path is returned) and the new content is written
   * atomically (temp file + rename).
   */
  rewrite(
    header: Record<string, unknown>,
    entries: readonly Record<string, unknown>[],
  ): { backupPath?: string };
  /**
   * Makes every appended entry durable now (fsync for the JSONL backend), whatever the durability
   * mode. Optional: backends without a notion of durability may omit it.
   */
  sync?(): void;
  /**
   * Optional, for asynchronous backends (PostgreSQL): resolves once every entry appended so far is
   * durable in the backend ("acknowledged"); rejects with a typed error when a write failed, after
   * which the backend refuses every append. Synchronous backends omit it: their `append` already is
   * the acknowledgement. See docs/postgres.md.
   */
  flush?(): Promise<void>;
  /**
   * Optional, the asynchronous read seam (network backends, which `load` only gives the records):
   * whether `readEntry(index)` can answer from memory now, without a query.
   */
  hasEntry?(index: number): boolean;
  /**
   * Optional, the asynchronous read seam: reads the entries at `indices` (in `records` order) that are
   * not held yet, in as few round trips as the backend can (the PostgreSQL backend: one query), so
   * that `readEntry` answers them from memory. Rejects with a typed error (`SESSION_READ_FAILED`).
   * `readEntry` of an entry not fetched still works, by a backend-specific synchronous fallback (the
   * PostgreSQL backend blocks for one query reading every line not held yet). The store calls it
   * through `SessionStore.prefetchProjection()`. Backends that hold every line omit both members.
   */
  fetchEntries?(indices: readonly number[]): Promise<void>;
  /** Flushes pending writes and releases locks. Idempotent. */
  close(): void;
}
