import { createMemoryStorage } from "../../storage/create-memory-storage";
import { serializeEntries } from "../../storage/internal/serialize-entries";
import type { SessionStorage, StorageLoadResult } from "../../storage/session-storage";
import { SessionStorageError } from "../../storage/session-storage-error";
import type { LineFetcher } from "./line-fetcher";
import type { LineRow, PgLineWriter } from "./pg-line-writer";
import type { RecordRow } from "./read-session-text";
import { createRowStorage, type LineStore } from "./row-storage";

/** The in-memory backend as a {@link LineStore} (the scanner reports blank, corrupt and torn lines). */
function textStore(text: string, location: string): LineStore {
  const memory = createMemoryStorage({ content: text, location });
  return {
    load: () => memory.load(),
    readEntry: (index) => memory.readEntry(index),
    lineOf: (index) => memory.lineOf(index),
    indexOfId: (id) => memory.indexOfId(id),
    hasEntry: () => true,
    fetchEntries: async () => {},
    append: (entries) => memory.append(entries),
    rewrite: (header, entries) => {
      memory.rewrite(header, entries);
    },
    close: () => memory.close(),
  };
}

/** The PostgreSQL backend as the store sees it: {@link SessionStorage} plus the async seam. */
export interface PostgresSessionStorage extends SessionStorage {
  readonly kind: "postgres";
  readonly path: undefined;
  /** `postgresql://host/db#<session id>` (no password). */
  readonly location: string;
  /** Whether this storage holds the writer lock (`false`: opened to read). */
  readonly writable: boolean;
  /** Lines of the session (header, blank, corrupt and torn lines included), appended ones too. */
  readonly lineCount: number;
  /** The header as stored (before the store migrates a version 1 or 2 session in memory), once loaded. */
  readonly storedHeader: Record<string, unknown> | undefined;
  /** Resolves once every appended line is committed; rejects with the writer's sticky error. */
  flush(): Promise<void>;
  /** 1-based line of the entry at `index`. */
  lineOf(index: number): number | undefined;
  /** Index of the last entry with this id. */
  indexOfId(id: string): number | undefined;
  /** Whether entry `index`'s line is held in memory (`readEntry` needs no query). */
  hasEntry(index: number): boolean;
  /** The asynchronous read seam: reads the lines of these entries not held yet, with one query. */
  fetchEntries(indices: readonly number[]): Promise<void>;
}

/**
 * The session's committed lines, held and read like the in-memory backend (same record table, lines
 * parsed on demand), with writes handed to `writer` (absent when opened to read). From `rows`, lines
 * the rows lack are read through `fetcher` (see `createRowStorage`); from `text`, everything is held
 * (the in-memory backend's scanner reports blank, corrupt and torn lines).
 */
export function createPostgresStorage(
  source: { text: string } | { rows: RecordRow[] },
  location: string,
  writer: PgLineWriter | undefined,
  fetcher?: LineFetcher,
): PostgresSessionStorage {
  const memory: LineStore =
    "rows" in source ? createRowStorage(source.rows, location, fetcher) : textStore(source.text, location);
  let lineCount =
    "rows" in source
      ? source.rows.length
      : source.text === ""
        ? 0
        : source.text.replace(/\n$/, "").split("\n").length;
  let hasHeader = false;
  let storedHeader: Record<string, unknown> | undefined;

  const requireWriter = (): PgLineWriter => {
    if (writer === undefined) {
      throw new SessionStorageError(
        "SESSION_WRITE_FAILED",
        `${location} was opened to read (no writer lock): nothing can be appended. Open it with mode "write".`,
        { path: location },
      );
    }
    writer.assertUsable();
    return writer;
  };

  const rowsOf = (entries: readonly Record<string, unknown>[], withHeader: boolean): LineRow[] => {
    const serialized = serializeEntries(entries, withHeader, location);
    const rows: LineRow[] = [];
    if (serialized.header) {
      rows.push({
        seq: 0,
        kind: "header",
        entryId: serialized.header.value.id as string,
        parentId: null,
        type: "session",
        role: null,
        line: serialized.header.json,
      });
    }
    for (const line of serialized.lines) {
      const record = line.record;
      rows.push({
        seq: 0,
        kind: record.parentId === undefined ? "entry-without-parent" : "entry",
        entryId: record.id ?? null,
        parentId: record.parentId ?? null,
        type: record.type,
        role: record.role ?? null,
        line: line.json,
      });
    }
    return rows;
  };

  return {
    kind: "postgres",
    path: undefined,
    location,
    writable: writer !== undefined,
    get lineCount() {
      return lineCount;
    },
    get storedHeader() {
      return storedHeader;
    },
    load(): StorageLoadResult {
      const result = memory.load();
      hasHeader = result.header !== undefined;
      storedHeader = result.header;
      return result;
    },
    readEntry: (index) => memory.readEntry(index),
    lineOf: (index) => memory.lineOf(index),
    indexOfId: (id) => memory.indexOfId(id),
    hasEntry: (index) => memory.hasEntry(index),
    fetchEntries: (indices) => memory.fetchEntries(indices),
    append(entries) {
      const target = requireWriter();
      if (entries.length === 0) return;
      const rows = rowsOf(entries, !hasHeader);
      for (const row of rows) row.seq = lineCount++;
      memory.append(entries, rows);
      hasHeader = true;
      target.enqueue("append", rows, lineCount);
    },
    rewrite(header, entries) {
      const target = requireWriter();
      const rows = rowsOf([header, ...entries], true);
      memory.rewrite(header, entries, rows);
      hasHeader = true;
      rows.forEach((row, seq) => {
        row.seq = seq;
      });
      lineCount = rows.length;
      target.enqueue("rewrite", rows, lineCount);
      return {};
    },
    flush: () => (writer === undefined ? Promise.resolve() : writer.flush()),
    close() {
      memory.close();
      writer?.close();
    },
  };
}
