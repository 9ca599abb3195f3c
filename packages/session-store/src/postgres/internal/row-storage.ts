import { RECORD_COLUMNS_MIN_ENTRIES, RecordTable } from "../../storage/internal/record-table";
import type { StorageLoadResult, StoredEntryRecord } from "../../storage/session-storage";
import { SessionStorageError } from "../../storage/session-storage-error";
import type { LineFetcher } from "./line-fetcher";
import type { LineRow } from "./pg-line-writer";
import type { RecordRow } from "./read-session-text";

/** The in-memory side of the PostgreSQL backend: what `createMemoryStorage` does, fed by rows. */
export interface LineStore {
  load(): StorageLoadResult;
  readEntry(index: number): Record<string, unknown>;
  lineOf(index: number): number | undefined;
  indexOfId(id: string): number | undefined;
  /** Whether the line of entry `index` is held (no query needed to read it). */
  hasEntry(index: number): boolean;
  /** Reads the lines of these entries that are not held yet, with one query. */
  fetchEntries(indices: readonly number[]): Promise<void>;
  /** Adds the rows of entries already checked and serialized (`rows`). */
  append(entries: readonly Record<string, unknown>[], rows: readonly LineRow[]): void;
  rewrite(
    header: Record<string, unknown>,
    entries: readonly Record<string, unknown>[],
    rows: readonly LineRow[],
  ): void;
  close(): void;
}

/** The light record of an entry row (as the line scanner would have extracted it from the line). */
function recordOf(row: RecordRow): StoredEntryRecord {
  const record: StoredEntryRecord = {
    id: row.entryId ?? undefined,
    parentId: row.kind === "entry-without-parent" ? undefined : row.parentId,
    type: row.type ?? "",
  };
  if (row.role !== null) record.role = row.role;
  return record;
}

/**
 * A session read from its rows' light records: no line is scanned or parsed at open (the records
 * come from the `session_lines` columns); an entry's line is parsed when the store reads it. Used
 * for version-3 sessions whose lines are a header then entries (no blank, corrupt or torn line);
 * others go through the in-memory backend's scanner, which reports those lines.
 *
 * Rows may come without their line (`line: undefined`, read with `readSessionRecords`): `fetcher`
 * then reads lines on demand. `fetchEntries` is the asynchronous way (the store's prefetch of what
 * the projection needs); a `readEntry` of a line not held reads every line not held yet in one
 * blocking query, so that at most one such wait happens per store.
 */
export function createRowStorage(rows: readonly RecordRow[], name: string, fetcher?: LineFetcher): LineStore {
  let lines: Array<string | undefined> = [];
  let seqs: number[] = [];
  let recordLines: number[] = [];
  let table = new RecordTable(Math.max(1024, rows.length));
  table.useColumns(rows.length >= RECORD_COLUMNS_MIN_ENTRIES);
  let header: Record<string, unknown> | undefined;
  const add = (row: RecordRow) => {
    lines.push(row.line);
    seqs.push(row.seq);
    if (row.kind === "header") {
      header = JSON.parse(row.line as string) as Record<string, unknown>;
      return;
    }
    recordLines.push(lines.length - 1);
    table.push(recordOf(row), 0, 0, lines.length);
  };
  const store = (found: Map<number, string>, lineIndices: readonly number[]) => {
    for (const lineIndex of lineIndices) lines[lineIndex] = found.get(seqs[lineIndex] as number);
  };
  const missingLines = (indices: Iterable<number>): number[] => {
    const missing: number[] = [];
    for (const index of indices) {
      const lineIndex = recordLines[index];
      if (lineIndex !== undefined && lines[lineIndex] === undefined) missing.push(lineIndex);
    }
    return missing;
  };
  const lineAt = (lineIndex: number): string => {
    const held = lines[lineIndex];
    if (held !== undefined) return held;
    if (fetcher === undefined) {
      throw new SessionStorageError("SESSION_READ_FAILED", `${name}: line ${lineIndex + 1} was not read.`, {
        path: name,
      });
    }
    const missing = missingLines(recordLines.keys());
    store(fetcher.fetchBlocking(missing.map((at) => seqs[at] as number)), missing);
    const line = lines[lineIndex];
    if (line === undefined)
      throw new Error(`Internal error: line ${lineIndex + 1} of ${name} was not fetched`);
    return line;
  };
  return {
    load() {
      const initial = rows;
      lines = [];
      seqs = [];
      for (const row of initial) add(row);
      table.settleParents();
      return table.loadResult(header, []);
    },
    readEntry(index) {
      const lineIndex = recordLines[index];
      if (lineIndex === undefined) {
        throw new SessionStorageError(
          "SESSION_ENTRY_OUT_OF_RANGE",
          `${name}: no entry at index ${index} (the session has ${recordLines.length}).`,
          { path: name },
        );
      }
      const line = lineAt(lineIndex);
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch (error) {
        throw new SessionStorageError(
          "SESSION_LINE_CORRUPT",
          `${name}:${lineIndex + 1}: the line of entry ${table.idOf(index) ?? index} does not parse (${String((error as Error).message).slice(0, 120)}). It is kept unchanged.`,
          { path: name, line: lineIndex + 1, cause: error },
        );
      }
    },
    lineOf: (index) => {
      const lineIndex = recordLines[index];
      return lineIndex === undefined ? undefined : lineIndex + 1;
    },
    indexOfId: (id) => {
      const index = table.indexOfId(id);
      return index < 0 ? undefined : index;
    },
    hasEntry: (index) => {
      const lineIndex = recordLines[index];
      return lineIndex !== undefined && lines[lineIndex] !== undefined;
    },
    async fetchEntries(indices) {
      const missing = [...new Set(missingLines(indices))];
      if (missing.length === 0 || fetcher === undefined) return;
      store(await fetcher.fetch(missing.map((at) => seqs[at] as number)), missing);
    },
    append(_entries, newRows) {
      for (const row of newRows) add(row);
    },
    rewrite(_header, _entries, newRows) {
      lines = [];
      seqs = [];
      recordLines = [];
      table = new RecordTable();
      table.useColumns(newRows.length >= RECORD_COLUMNS_MIN_ENTRIES);
      for (const row of newRows) add(row);
    },
    close() {
      fetcher?.close();
    },
  };
}
