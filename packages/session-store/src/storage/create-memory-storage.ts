import { hasByteOrderMark, LineScanner, parseLine } from "./internal/line-scanner";
import { RECORD_COLUMNS_MIN_BYTES, RecordTable } from "./internal/record-table";
import { serializeEntries } from "./internal/serialize-entries";
import type { SessionStorage, StorageLoadIssue, StorageLoadResult } from "./session-storage";
import { SessionStorageError } from "./session-storage-error";

/** Options of {@link createMemoryStorage}. */
export interface MemoryStorageOptions {
  /** Name used in error messages (`memory:<name>`). Default `session`. */
  name?: string;
  /**
   * Where the text came from (for example a database session, `postgresql://host/db#<id>`): named as
   * is in messages instead of `memory:<name>`, and reported as the storage's `location`.
   */
  location?: string;
  /**
   * Initial content as JSONL text (for example a pi session file read from disk). Parsed like the
   * JSONL backend parses a file: corrupt lines and an incomplete last line are reported in `issues`
   * and kept in the text returned by `toJsonl()`.
   */
  content?: string;
  /** Initial content as objects: a header and entries in file order. Ignored when `content` is set. */
  header?: Record<string, unknown>;
  /** Entries following `header`. */
  entries?: readonly Record<string, unknown>[];
  /**
   * @internal Content of at least this many bytes keeps its records as columns, less as objects
   * (default `RECORD_COLUMNS_MIN_BYTES`); tests set 0 to run the columns on small sessions.
   */
  recordColumnsMinBytes?: number;
}

/** The in-memory backend: {@link SessionStorage} plus a way to get the session text back. */
export interface MemorySessionStorage extends SessionStorage {
  readonly kind: "memory";
  readonly path: undefined;
  /** The 1-based line of the entry at `index` in `toJsonl()`, `undefined` outside the records. */
  lineOf(index: number): number | undefined;
  /** Index of the last entry with this id (appended ones included), `undefined` when none. */
  indexOfId(id: string): number | undefined;
  /** The whole session as JSONL text, every line kept (corrupt ones included), ending with a newline. */
  toJsonl(): string;
}

/**
 * Creates an in-memory backend. It behaves like the JSONL backend without a file: entries are stored
 * as their JSON lines (so what you read back is exactly what a file would hold, and mutating an object
 * after `append` does not change the stored entry), `readEntry` parses on demand, `append` is all or
 * nothing, `rewrite` replaces everything (no backup). No locks, no durability: nothing survives the
 * process. `sync` is a no-op.
 *
 * @example
 * const storage = createMemoryStorage({ content: readFileSync("s.jsonl", "utf8") });
 * const { header, records, issues } = storage.load();
 */
export function createMemoryStorage(options: MemoryStorageOptions = {}): MemorySessionStorage {
  const name = options.location ?? `memory:${options.name ?? "session"}`;
  const table = new RecordTable();
  let lines: string[] = [];
  let recordLines: number[] = [];
  let header: Record<string, unknown> | undefined;
  let state: "new" | "loaded" | "closed" = "new";

  const assertLoaded = () => {
    if (state === "closed") {
      throw new SessionStorageError("SESSION_CLOSED", `${name}: the storage is closed.`, { path: name });
    }
    if (state === "new")
      throw new SessionStorageError("SESSION_NOT_LOADED", `${name}: call load() first.`, { path: name });
  };

  const initialText = (): string => {
    if (options.content !== undefined) return options.content;
    if (options.header === undefined) return "";
    const { header: h, lines: l } = serializeEntries(
      [options.header, ...(options.entries ?? [])],
      true,
      name,
    );
    return [...(h ? [h.json] : []), ...l.map((x) => x.json)].map((json) => `${json}\n`).join("");
  };

  return {
    kind: "memory",
    path: undefined,
    ...(options.location !== undefined ? { location: options.location } : {}),
    load(): StorageLoadResult {
      if (state !== "new") {
        throw new SessionStorageError(
          state === "closed" ? "SESSION_CLOSED" : "SESSION_ALREADY_LOADED",
          `${name} is ${state === "closed" ? "closed" : "already loaded"}.`,
          { path: name },
        );
      }
      const text = initialText();
      const buf = Buffer.from(text, "utf8");
      table.useColumns(buf.length >= (options.recordColumnsMinBytes ?? RECORD_COLUMNS_MIN_BYTES));
      const scanner = new LineScanner(name, table);
      const end = scanner.scanChunk(buf, buf.length, 0);
      const tornTail: StorageLoadIssue[] = [];
      if (end < buf.length) {
        const bom = end === 0 && hasByteOrderMark(buf, 0, buf.length) ? 3 : 0;
        const parsed = parseLine(buf, end + bom, buf.length);
        if (parsed.ok || buf.toString("utf8", end + bom).trim() === "") {
          scanner.classify(buf, end, buf.length, end);
        } else {
          const line = scanner.lineNo + 1;
          tornTail.push({
            code: "SESSION_TAIL_TORN",
            line,
            message: `${name}:${line}: the last line is incomplete (${buf.length - end} bytes). It is kept in the text and left out of the session.`,
            byteOffset: end,
            byteLength: buf.length - end,
          });
        }
      }
      // Read after the tail was classified: a complete last line that is no entry is reported too.
      const issues: StorageLoadIssue[] = [...scanner.issues, ...tornTail];
      scanner.requireHeader(end > 0 || table.size > 0);
      header = scanner.header;
      lines = text === "" ? [] : text.replace(/\n$/, "").split("\n");
      recordLines = Array.from({ length: table.size }, (_, i) => table.lineOf(i) - 1);
      table.settleParents();
      state = "loaded";
      return table.loadResult(header, issues);
    },
    readEntry(index: number): Record<string, unknown> {
      assertLoaded();
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
        // A line that passed the load-time fast scan but is broken in between (as the JSONL backend).
        throw new SessionStorageError(
          "SESSION_LINE_CORRUPT",
          `${name}:${lineIndex + 1}: the line of entry ${table.idOf(index) ?? index} does not parse (${String((error as Error).message).slice(0, 120)}). It is kept unchanged.`,
          { path: name, line: lineIndex + 1, cause: error },
        );
      }
    },
    readEntryLine(index: number): Uint8Array | undefined {
      assertLoaded();
      const lineIndex = recordLines[index];
      return lineIndex === undefined ? undefined : Buffer.from(lines[lineIndex] as string, "utf8");
    },
    lineOf(index: number): number | undefined {
      const lineIndex = recordLines[index];
      return lineIndex === undefined ? undefined : lineIndex + 1;
    },
    indexOfId(id: string): number | undefined {
      assertLoaded();
      const index = table.indexOfId(id);
      return index < 0 ? undefined : index;
    },
    append(entries: readonly Record<string, unknown>[]): void {
      assertLoaded();
      if (entries.length === 0) return;
      const serialized = serializeEntries(entries, header === undefined, name);
      if (serialized.header) {
        lines.push(serialized.header.json);
        header = serialized.header.value;
      }
      for (const { json, record } of serialized.lines) {
        lines.push(json);
        recordLines.push(lines.length - 1);
        table.push(record, 0, 0, lines.length);
      }
    },
    rewrite(
      newHeader: Record<string, unknown>,
      entries: readonly Record<string, unknown>[],
    ): { backupPath?: string } {
      assertLoaded();
      const serialized = serializeEntries([newHeader, ...entries], true, name);
      lines = [serialized.header?.json ?? ""];
      recordLines = [];
      table.clear();
      for (const { json, record } of serialized.lines) {
        lines.push(json);
        recordLines.push(lines.length - 1);
        table.push(record, 0, 0, lines.length);
      }
      header = newHeader;
      return {};
    },
    sync(): void {
      assertLoaded();
    },
    toJsonl(): string {
      return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
    },
    close(): void {
      state = "closed";
    },
  };
}
