/**
 * A minimal in-memory SessionStorage for the store's tests: it keeps JSON lines (so entries are
 * copied through JSON like a file), counts reads, and can be told to fail the next append.
 */
import type { SessionStorage, StorageLoadResult, StoredEntryRecord } from "../storage/session-storage";

export class TestStorage implements SessionStorage {
  readonly kind = "test";
  headerLine: string | undefined;
  lines: string[] = [];
  reads = 0;
  rewrites: Array<{ header: Record<string, unknown>; entries: Record<string, unknown>[] }> = [];
  failNextAppend = false;
  closed = false;

  constructor(
    lines: readonly object[] = [],
    readonly path: string | undefined = undefined,
  ) {
    const [first, ...rest] = lines;
    if (first) this.headerLine = JSON.stringify(first);
    this.lines = rest.map((line) => JSON.stringify(line));
  }

  load(): StorageLoadResult {
    const records: StoredEntryRecord[] = this.lines.map((line) => {
      const entry = JSON.parse(line);
      const record: StoredEntryRecord = { id: entry.id, parentId: entry.parentId, type: entry.type };
      if (entry.type === "message" && typeof entry.message?.role === "string") record.role = entry.message.role;
      return record;
    });
    return { header: this.headerLine ? JSON.parse(this.headerLine) : undefined, records, issues: [] };
  }

  readEntry(index: number): Record<string, unknown> {
    this.reads++;
    const line = this.lines[index];
    if (line === undefined) throw new Error(`no entry ${index}`);
    return JSON.parse(line);
  }

  lineOf(index: number): number {
    return index + 2;
  }

  append(entries: readonly Record<string, unknown>[]): void {
    if (this.failNextAppend) {
      this.failNextAppend = false;
      throw new Error("disk full");
    }
    let rest = entries;
    if (this.headerLine === undefined) {
      this.headerLine = JSON.stringify(entries[0]);
      rest = entries.slice(1);
    }
    for (const entry of rest) this.lines.push(JSON.stringify(entry));
  }

  rewrite(header: Record<string, unknown>, entries: readonly Record<string, unknown>[]): { backupPath?: string } {
    this.rewrites.push({ header, entries: [...entries] });
    this.headerLine = JSON.stringify(header);
    this.lines = entries.map((entry) => JSON.stringify(entry));
    return { backupPath: "backup" };
  }

  close(): void {
    this.closed = true;
  }

  /** The stored lines parsed back, header first. */
  fileEntries(): Record<string, unknown>[] {
    return [...(this.headerLine ? [JSON.parse(this.headerLine)] : []), ...this.lines.map((line) => JSON.parse(line))];
  }
}
