import type { SessionStorageError } from "../storage/session-storage-error";

/**
 * Thrown by `EntryTable.entry` when the line of a loaded entry turns out not to parse (the fast load
 * scan only reads the start of each line). By then the table has already left the entry out, as if
 * the line had been found corrupt at load; the session view reports it and retries what it was doing.
 * Internal: it never leaves the package.
 */
export class CorruptLineFound extends Error {
  constructor(
    /** Index of the entry whose line is corrupt. */
    readonly index: number,
    /** The backend's `SESSION_LINE_CORRUPT` error (names the file and line). */
    readonly storageError: SessionStorageError,
    /** True when the entry had already been left out (a caller read a hidden entry: a bug). */
    readonly again = false,
  ) {
    super(storageError.message);
    this.name = "CorruptLineFound";
  }
}
