import type { StorageFs } from "./internal/storage-fs";
import type { SessionStorage } from "./session-storage";

/**
 * When appended bytes are forced to stable storage with fsync. In every mode `append` hands each line
 * to the OS with one `write` before it returns, so a crash of the process never loses a returned
 * entry; the modes differ only for an OS crash or power loss:
 * - `always`: fsync after every `append` call, before it returns. Nothing returned is lost.
 * - `batched` (default): fsync at most every `batchIntervalMs` (on the append that crosses the
 *   interval, else from a timer), on `sync()` and on `close()`. At most the last interval is lost.
 * - `never`: no fsync (pi's behaviour); the OS writes back when it likes (typically within ~30 s).
 */
export type DurabilityMode = "always" | "batched" | "never";

/** Options of {@link createJsonlStorage}. */
export interface JsonlStorageOptions {
  /** See {@link DurabilityMode}. Default `batched`. */
  durability?: DurabilityMode;
  /** Longest time appended data stays un-synced in `batched` mode, in ms. Default 1000. */
  batchIntervalMs?: number;
  /**
   * Appends check that the session file is still the one the storage writes (one `fstat`: not
   * deleted, not replaced by another file, not truncated, not grown by another writer) before the
   * first append of each synchronous run of JavaScript (any `await` or callback between two appends
   * starts a new run, so an append after a tool's command is always checked), and within a run
   * before an append that comes this many ms or more after the last check; also on `close()` when
   * something was appended since. A change found refuses that append and every later one
   * (`SESSION_FILE_CHANGED`). The other appends of a synchronous burst land where a change made
   * meanwhile by another process left the file; for a deleted or replaced file, its bytes (those
   * appends included) are copied to `<session>.recovered-<time>` when the change is found. Default
   * 100; 0 checks before every append (the default with `durability: "always"`).
   */
  fileCheckIntervalMs?: number;
  /**
   * Open without the writer lock and never modify the session: `append`/`rewrite` throw, a torn tail
   * is reported but not quarantined, a missing file throws `SESSION_NOT_FOUND`. Default false.
   */
  readOnly?: boolean;
  /**
   * The sidecar index: a cache of the load-time scan, so that a later open scans only the bytes
   * appended since (see the package README). An explicit opt-in:
   * - `false` (default): no index is read or written;
   * - `true`: `<session>.idx` beside the session file, read by every open and written on `close()`
   *   by writable storages only (a read-only open never creates a file beside the session);
   * - `{ dir }`: `<dir>/<first 32 hex characters of SHA-256 of the absolute session path>.idx`, in a
   *   cache folder of the caller's (for example under the application's home folder); read, and
   *   written on `close()` by read-only storages too. The folder is created when needed.
   *
   *   With `writeOnSecondOpen: true`, a read-only storage that found no index there writes only a
   *   small marker on `close()`, and the index itself when it is opened again: a file looked at once
   *   (a one-off `inspect`) costs no index write, one looked at again gets its index.
   *
   * An index is validated before use (its digest, the file's inode, sampled blocks of the covered
   * prefix), so a stale or foreign one only costs a full scan; it can be deleted at any time.
   */
  sidecarIndex?: boolean | { dir: string; writeOnSecondOpen?: boolean };
  /** Files smaller than this get no sidecar index written (reading one is always tried). Default 1 MiB. */
  sidecarMinBytes?: number;
  /**
   * @internal Files of at least this many bytes keep their records as columns, smaller ones as
   * objects (default `RECORD_COLUMNS_MIN_BYTES`); tests set 0 to run the columns on small files.
   */
  recordColumnsMinBytes?: number;
  /** @internal Replacement for `node:fs`, used by tests to inject I/O failures. */
  fs?: StorageFs;
}

/** Counters of a JSONL storage, for tests, benchmarks and diagnostics. */
export interface JsonlStorageStats {
  /** Bytes of the session file scanned by `load` (excludes bytes covered by a valid sidecar index). */
  bytesScanned: number;
  /** Lines scanned by `load`. */
  linesScanned: number;
  /** Entry lines whose record came from the fast byte scan. */
  fastPathLines: number;
  /** Entry lines that needed a full JSON.parse during `load`. */
  parsedLines: number;
  /** Whether `load` started from a valid sidecar index. */
  indexUsed: boolean;
  /** Why an existing sidecar index was not used (`missing`, `indexed prefix changed`, ...). */
  indexRejectedReason: string | undefined;
  /** Bytes covered by the sidecar index used at load (0 when none). */
  indexedBytes: number;
  /** Sidecar index files written by this storage. */
  indexWrites: number;
  /** Whether `load` added a missing final newline after a complete last line. */
  tailRepaired: boolean;
  /** `readEntry` calls served. */
  entriesRead: number;
  /** Entry lines written by `append` (header included). */
  linesWritten: number;
  /** fsync calls on the session file. */
  fsyncs: number;
}

/** The JSONL file backend: {@link SessionStorage} plus its file-specific extras. */
export interface JsonlSessionStorage extends SessionStorage {
  readonly kind: "jsonl";
  readonly path: string;
  /** The durability mode in effect. */
  readonly durability: DurabilityMode;
  /** Whether the storage was opened read-only. */
  readonly readOnly: boolean;
  /** The 1-based file line of the entry at `index`, `undefined` outside `0..records-1`. */
  lineOf(index: number): number | undefined;
  /** Index of the last entry with this id (appended ones included), `undefined` when none. */
  indexOfId(id: string): number | undefined;
  /** fsyncs appended data now, whatever the mode. Throws `SESSION_WRITE_FAILED`. */
  sync(): void;
  /**
   * Writes the sidecar index for everything scanned and appended so far (also done by `close` for
   * files of at least `sidecarMinBytes`). Returns false if it could not be written (it is only a
   * cache) or may not be: no `sidecarIndex` option, or `true` on a read-only storage.
   */
  writeIndex(): boolean;
  /** A snapshot of the counters. */
  stats(): JsonlStorageStats;
}
