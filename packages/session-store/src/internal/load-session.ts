import {
  migrateOwnedSessionEntries,
  migrateSessionEntries,
  readSessionVersion,
} from "../migrations/migrate-session-entries";
import type { SessionHeader } from "../session-entry";
import { SessionStoreError } from "../session-store-error";
import { JsonlStorage } from "../storage/internal/jsonl-storage";
import { loadedColumnsOf } from "../storage/internal/loaded-records";
import type { SessionStorage, StorageLoadIssue, StoredEntryRecord } from "../storage/session-storage";
import { createPositionIdSource } from "./create-position-id-source";
import { type EntryProblem, EntryTable } from "./entry-table";
import { RecordArray } from "./record-columns";
import { findHeaderProblem } from "./validate-entry";

/** What {@link loadSession} found. */
export interface LoadedSession {
  /** `undefined` for a new (empty) session. */
  header: SessionHeader | undefined;
  table: EntryTable;
  /** Corrupt or torn lines reported by the backend. */
  storageIssues: StorageLoadIssue[];
  /** The version the file had, when it was migrated in memory. */
  migratedFrom: number | undefined;
}

/** Builds the light record of an entry held in memory. */
export function recordOf(entry: Record<string, unknown>): StoredEntryRecord {
  const record: StoredEntryRecord = {
    id: typeof entry.id === "string" ? entry.id : undefined,
    parentId: typeof entry.parentId === "string" || entry.parentId === null ? entry.parentId : undefined,
    type: typeof entry.type === "string" ? entry.type : "",
  };
  const message = entry.message as { role?: unknown } | null | undefined;
  if (entry.type === "message" && message && typeof message.role === "string") record.role = message.role;
  return record;
}

/**
 * Loads a session from its backend: checks the header, and for version 1 or 2 reads every entry and
 * migrates in memory (the file is left untouched; version-1 entries get ids derived from the header
 * and their position, the same on every open). Current-version sessions stay lazy: only records.
 *
 * @throws SessionStoreError `SESSION_HEADER_INVALID` when the first line is not a session header.
 */
export function loadSession(
  storage: SessionStorage,
  onProblem: (problem: EntryProblem) => void,
): LoadedSession {
  const result = storage.load();
  // The shipped backends' records as columns (no object per record); another backend's array.
  const records = loadedColumnsOf(result) ?? new RecordArray(result.records);
  const sessionFile = storage.path ?? storage.location;
  if (result.header === undefined) {
    if (records.size > 0) {
      throw new SessionStoreError("SESSION_HEADER_INVALID", "Session has entries but no header line", {
        sessionFile,
      });
    }
    const table = new EntryTable(new RecordArray([]), () => ({}), onProblem);
    return { header: undefined, table, storageIssues: result.issues, migratedFrom: undefined };
  }
  const problem = findHeaderProblem(result.header);
  if (problem !== undefined) {
    throw new SessionStoreError("SESSION_HEADER_INVALID", `Invalid session header: ${problem}`, {
      sessionFile,
      line: 1,
    });
  }
  const version = readSessionVersion([result.header]);
  if (version >= 3) {
    const table = new EntryTable(records, (index) => storage.readEntry(index), onProblem, {
      ...(result.parentIndex ? { parentIndex: result.parentIndex } : {}),
      ...(result.repeatedIds === undefined ? {} : { repeatedIds: result.repeatedIds }),
      ...(storage.indexOfId ? { indexOfId: (id: string) => storage.indexOfId?.(id) } : {}),
      ...(storage.hasEntry ? { hasEntry: (index: number) => storage.hasEntry?.(index) !== false } : {}),
    });
    return {
      header: result.header as unknown as SessionHeader,
      table,
      storageIssues: result.issues,
      migratedFrom: undefined,
    };
  }
  const raw = Array.from({ length: records.size }, (_, index) => storage.readEntry(index));
  // Version 1 entries have no ids: derive them from the header and each entry's position, so that
  // every open of the same file (read-only ones never rewrite it) gives the same ids.
  // The JSONL backend gives a new object for every read (or the one its load parsed, once), so its
  // entries are migrated in place; another backend may hand out objects it keeps: they are copied.
  // The header is the backend's own object: copied either way.
  const migrate = storage instanceof JsonlStorage ? migrateOwnedSessionEntries : migrateSessionEntries;
  const migrated = migrate([{ ...result.header }, ...raw], {
    idSource: createPositionIdSource(JSON.stringify(result.header)),
  });
  const [header, ...entries] = migrated.entries;
  // Every entry is in memory: the id lookup is one Map, made here, instead of the table's own index
  // built on the first lookup. The last entry with an id wins, as in the table's index.
  const positions = new Map<string, number>();
  const migratedRecords = entries.map((entry, index) => {
    const record = recordOf(entry);
    if (record.id !== undefined && record.type !== "session") positions.set(record.id, index);
    return record;
  });
  const table = new EntryTable(
    new RecordArray(migratedRecords),
    (index) => entries[index] as Record<string, unknown>,
    onProblem,
    { indexOfId: (id) => positions.get(id) },
  );
  return {
    header: header as unknown as SessionHeader,
    table,
    storageIssues: result.issues,
    migratedFrom: version,
  };
}
