import { JsonlStorage } from "./internal/jsonl-storage";
import type { JsonlSessionStorage, JsonlStorageOptions } from "./jsonl-storage-options";

/**
 * Creates the JSONL file backend for the session at `path` (nothing is touched until `load()`).
 *
 * - `load()` takes the writer lock `<path>.lock` (unless `readOnly`), scans the file without parsing
 *   every line (records come from a validated byte scan; lines that do not match the fast pattern are
 *   parsed fully), reuses a valid sidecar index (with `options.sidecarIndex`) so that only bytes
 *   appended since are scanned, reports corrupt lines with their line number (they stay in the
 *   file), and sets a torn last line aside in `<path>.torn-<time>`.
 * - `append()` writes one line per entry with one `write`, creating the file on the first append
 *   (header first), durable per `options.durability` (default `batched`). It refuses to write to a
 *   file another program deleted, replaced, truncated or appended to (`SESSION_FILE_CHANGED`; checked
 *   once per synchronous run of appends, see `options.fileCheckIntervalMs`).
 * - `readEntry(i)` reads and parses one line on demand; the file's text is never kept in memory.
 * - `rewrite()` replaces the file atomically and keeps the original as `<path>.bak-<time>`.
 * - `close()` checks the file once more if something was appended since the last check, syncs
 *   pending data, writes the sidecar index (when opted in) for files of at least 1 MiB, releases the
 *   lock. A lock left by a process that died is detected (pid + hostname + process start) and taken over.
 *
 * Every failure is a `SessionStorageError` with a stable code naming the file and line; an option
 * out of range throws `SESSION_OPTIONS_INVALID` here.
 *
 * @example
 * const storage = createJsonlStorage("/tmp/s.jsonl");
 * const { header, records, issues } = storage.load();
 * if (!header) storage.append([{ type: "session", version: 3, id: "s1", timestamp: new Date().toISOString(), cwd: "/" }]);
 * storage.close();
 */
export function createJsonlStorage(path: string, options: JsonlStorageOptions = {}): JsonlSessionStorage {
  return new JsonlStorage(path, options);
}
