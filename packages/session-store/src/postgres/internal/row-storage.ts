import { RecordTable } from "../../storage/internal/record-table";
import type { StorageLoadResult, StoredEntryRecord } from "../../storage/session-storage";
import { SessionStorageError } from "../../storage/session-storage-error";
import type { LineRow } from "./pg-line-writer";

/** The in-memory side of the PostgreSQL backend: what `createMemoryStorage` does, fed by rows. */
export interface LineStore {
  load(): StorageLoadResult;
  readEntry(index: number): Record<string, unknown>;
  lineOf(index: number): number | undefined;
  indexOfId(id: string): number | undefined;
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
function recordOf(row: LineRow): StoredEntryRecord {
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
 */
export function createRowStorage(rows: readonly LineRow[], name: string): LineStore {
  let lines: string[] = rows.map((row) => row.line);
  let recordLines: number[] = [];
  let table = new RecordTable(Math.max(1024, rows.length));
  let header: Record<string, unknown> | undefined;
  const add = (row: LineRow) => {
    lines.push(row.line);
    if (row.kind === "header") {
      header = JSON.parse(row.line) as Record<string, unknown>;
      return;
    }
    recordLines.push(lines.length - 1);
    table.push(recordOf(row), 0, 0, lines.length);
  };
  return {
    load() {
      const initial = lines;
      lines = [];
      for (const [seq, row] of rows.entries()) add({ ...row, line: initial[seq] as string });
      table.settleParents();
      return { header, records: table.records.slice(), issues: [], parentIndex: table.parentIndex() };
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
      try {
        return JSON.parse(lines[lineIndex] as string) as Record<string, unknown>;
      } catch (error) {
        throw new SessionStorageError(
          "SESSION_LINE_CORRUPT",
          `${name}:${lineIndex + 1}: the line of entry ${table.records[index]?.id ?? index} does not parse (${String((error as Error).message).slice(0, 120)}). It is kept unchanged.`,
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
    append(_entries, newRows) {
      for (const row of newRows) add(row);
    },
    rewrite(_header, _entries, newRows) {
      lines = [];
      recordLines = [];
      table = new RecordTable();
      for (const row of newRows) add(row);
    },
    close() {},
  };
}
