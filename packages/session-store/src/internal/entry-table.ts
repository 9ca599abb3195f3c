import type { SessionEntry } from "../session-entry";
import type { StoredEntryRecord } from "../storage/session-storage";
import { findEntryProblem } from "./validate-entry";

/** Reads the full entry at a loaded index (for JSONL: parses the line on demand). */
export type EntryReader = (index: number) => Record<string, unknown>;

/** An entry that failed structural validation. The entry is kept; this only reports it. */
export interface EntryProblem {
  index: number;
  entryId: string | undefined;
  problem: string;
}

const UNRESOLVED = -2;
const NO_PARENT = -1;

/**
 * All entries of a session, addressed by index in file order, without materializing them: tree
 * walks use the light records (id, parentId, type, role); full entries are read on demand and
 * validated the first time. Entries appended in this process are kept in memory.
 *
 * Ids: the id → index map is built on first need, and later duplicates win (as pi's `byId`).
 */
export class EntryTable {
  private readonly records: StoredEntryRecord[];
  private readonly appended: SessionEntry[] = [];
  private readonly loadedCount: number;
  private idToIndex: Map<string, number> | undefined;
  private parents: Int32Array;
  private readonly checked: Uint8Array;
  /** Entries held by the projection cache, so repeated reads return the same objects. */
  private readonly pinned = new Map<number, SessionEntry>();

  constructor(
    loadedRecords: readonly StoredEntryRecord[],
    private readonly read: EntryReader,
    private readonly onProblem: (problem: EntryProblem) => void,
  ) {
    // The backend hands the array over (it keeps its own copy): no need to copy a million records.
    this.records = loadedRecords as StoredEntryRecord[];
    this.loadedCount = loadedRecords.length;
    this.parents = new Int32Array(Math.max(16, this.records.length)).fill(UNRESOLVED);
    this.checked = new Uint8Array(this.loadedCount);
  }

  /** Number of entries (loaded and appended). */
  get size(): number {
    return this.records.length;
  }

  /** The light record of entry `index`. */
  record(index: number): StoredEntryRecord {
    return this.records[index] as StoredEntryRecord;
  }

  /** Index of the entry with this id (the last one in file order for duplicated ids). */
  indexOf(id: string): number | undefined {
    return this.ids().get(id);
  }

  /** True when some entry has this id. */
  has(id: string): boolean {
    return this.ids().has(id);
  }

  /**
   * True for a stray `type: "session"` line after the header: pi ignores such lines (they are no tree
   * node), so does the store; they stay in the file.
   */
  isHidden(index: number): boolean {
    return this.record(index).type === "session";
  }

  /** The last visible entry index in file order (the leaf after load), or -1. */
  lastVisible(): number {
    let index = this.records.length - 1;
    while (index >= 0 && this.isHidden(index)) index--;
    return index;
  }

  /** Index of the parent of `index`, or -1 for a root or a missing parent. */
  parentOf(index: number): number {
    let parent = this.parents[index] as number;
    if (parent === UNRESOLVED) {
      const parentId = this.record(index).parentId;
      parent = parentId ? (this.ids().get(parentId) ?? NO_PARENT) : NO_PARENT;
      this.parents[index] = parent;
    }
    return parent;
  }

  /**
   * The full entry at `index`. A loaded entry is read through the backend and validated the first
   * time (problems are reported once, the entry is still returned). Not a copy: do not mutate.
   */
  entry(index: number): SessionEntry {
    if (index >= this.loadedCount) return this.appended[index - this.loadedCount] as SessionEntry;
    const pinned = this.pinned.get(index);
    if (pinned) return pinned;
    const entry = this.read(index);
    if (this.checked[index] === 0) {
      this.checked[index] = 1;
      const problem = findEntryProblem(entry);
      if (problem !== undefined) this.onProblem({ index, entryId: this.record(index).id, problem });
    }
    return entry as unknown as SessionEntry;
  }

  /** Keeps these materialized entries for reuse; drops earlier pins. */
  pin(entries: ReadonlyMap<number, SessionEntry>): void {
    this.pinned.clear();
    for (const [index, entry] of entries) if (index < this.loadedCount) this.pinned.set(index, entry);
  }

  /** Adds an entry appended in this process; returns its index. */
  push(entry: SessionEntry): number {
    const index = this.records.length;
    const message = entry.type === "message" ? (entry.message as { role?: unknown } | undefined) : undefined;
    const record: StoredEntryRecord = { id: entry.id, parentId: entry.parentId, type: entry.type };
    if (typeof message?.role === "string") record.role = message.role;
    this.records.push(record);
    this.appended.push(entry);
    if (index >= this.parents.length) {
      const grown = new Int32Array(this.parents.length * 2).fill(UNRESOLVED);
      grown.set(this.parents);
      this.parents = grown;
    }
    this.idToIndex?.set(entry.id, index);
    return index;
  }

  /** Every entry index of the given type, in file order. O(size) over records only. */
  indicesOfType(type: string): number[] {
    const found: number[] = [];
    for (let index = 0; index < this.records.length; index++) {
      if ((this.records[index] as StoredEntryRecord).type === type) found.push(index);
    }
    return found;
  }

  private ids(): Map<string, number> {
    if (!this.idToIndex) {
      const map = new Map<string, number>();
      for (let index = 0; index < this.records.length; index++) {
        const record = this.records[index] as StoredEntryRecord;
        if (record.id !== undefined && record.type !== "session") map.set(record.id, index);
      }
      this.idToIndex = map;
    }
    return this.idToIndex;
  }
}
