import type { StoredEntryRecord } from "../session-storage";
import { IdIndex, type IdIndexState } from "./id-index";

/** `parentIndex` value of a root (`parentId: null`). */
export const PARENT_ROOT = -1;
/** `parentIndex` value when the entry has no `parentId` field (version-1 entries). */
export const PARENT_ABSENT = -2;
/** `parentIndex` value when no record has the entry's `parentId`. */
export const PARENT_MISSING = -3;

/**
 * Records plus where each entry line lives in the file, kept compactly: byte offset (Float64, so files
 * above 4 GiB work), line length in bytes without the newline (Uint32), 1-based line number (Uint32)
 * and the index of the parent record (Int32, resolved through an {@link IdIndex}; the last record
 * with an id wins, as in pi). The file's text itself is never kept.
 */
export class RecordTable {
  readonly records: StoredEntryRecord[] = [];
  private starts: Float64Array;
  private lengths: Uint32Array;
  private lines: Uint32Array;
  private parents: Int32Array;
  private ids: IdIndex;
  private missing = 0;

  constructor(capacity = 1024) {
    this.starts = new Float64Array(capacity);
    this.lengths = new Uint32Array(capacity);
    this.lines = new Uint32Array(capacity);
    this.parents = new Int32Array(capacity);
    this.ids = new IdIndex(this.records, capacity);
  }

  get size(): number {
    return this.records.length;
  }

  push(record: StoredEntryRecord, start: number, length: number, line: number): void {
    const i = this.records.length;
    if (i === this.starts.length) this.grow(i * 2);
    this.records.push(record);
    this.starts[i] = start;
    this.lengths[i] = length;
    this.lines[i] = line;
    this.ids.insert(i);
    this.parents[i] = this.resolve(record.parentId, i);
  }

  /** Makes room for about `expected` records up front (avoids regrowing while scanning a big file). */
  reserve(expected: number): void {
    if (expected > this.starts.length) this.grow(expected);
    this.ids.reserve(expected);
  }

  startOf(i: number): number {
    return this.starts[i] as number;
  }

  lengthOf(i: number): number {
    return this.lengths[i] as number;
  }

  lineOf(i: number): number {
    return this.lines[i] as number;
  }

  /** Index of the last record with `id` (not counting `type: "session"` lines), or -1. */
  indexOfId(id: string): number {
    return this.ids.find(id);
  }

  /**
   * Resolves parents that pointed forward or at a duplicated id. Call after a batch of pushes (a
   * load); cheap when every parent was found and no id repeats (the normal case).
   */
  settleParents(): void {
    if (this.missing === 0 && !this.ids.duplicates) return;
    this.missing = 0;
    for (let i = 0; i < this.records.length; i++) {
      const parentId = this.records[i]?.parentId;
      if (typeof parentId !== "string") continue;
      const parent = this.ids.find(parentId);
      this.parents[i] = parent < 0 ? PARENT_MISSING : parent;
      if (parent < 0) this.missing++;
    }
  }

  /** A copy of the parent indices of every record. */
  parentIndex(): Int32Array {
    return this.parents.slice(0, this.records.length);
  }

  /** Drops every record from index `count` on (used to roll back a failed batch append). */
  truncate(count: number): void {
    if (count >= this.records.length) return;
    this.records.length = count;
    this.ids = IdIndex.build(this.records); // rare: rebuild rather than un-insert
    this.settleParents();
  }

  /** Views of the columns for `size` records and the id index, for the sidecar index. */
  columns(): TableColumns {
    const n = this.records.length;
    return {
      starts: this.starts.subarray(0, n),
      lengths: this.lengths.subarray(0, n),
      lines: this.lines.subarray(0, n),
      parents: this.parents.subarray(0, n),
      idIndex: this.ids.state(),
    };
  }

  /** Replaces everything with a sidecar index's content. */
  adopt(records: StoredEntryRecord[], columns: TableColumns): void {
    const capacity = Math.max(1024, records.length * 2);
    this.starts = new Float64Array(capacity);
    this.lengths = new Uint32Array(capacity);
    this.lines = new Uint32Array(capacity);
    this.parents = new Int32Array(capacity);
    this.starts.set(columns.starts);
    this.lengths.set(columns.lengths);
    this.lines.set(columns.lines);
    this.parents.set(columns.parents);
    this.records.length = 0;
    for (const r of records) this.records.push(r);
    this.ids = IdIndex.restore(this.records, columns.idIndex);
    this.missing = 0;
    for (let i = 0; i < records.length; i++) if (this.parents[i] === PARENT_MISSING) this.missing++;
  }

  clear(): void {
    this.records.length = 0;
    this.ids = new IdIndex(this.records, this.starts.length);
    this.missing = 0;
  }

  private resolve(parentId: string | null | undefined, i: number): number {
    if (parentId === null) return PARENT_ROOT;
    if (parentId === undefined) return PARENT_ABSENT;
    const previous = this.records[i - 1];
    // The common case, a chain: the parent is the line before (unless that id repeats later; see settleParents).
    if (previous !== undefined && previous.id === parentId && previous.type !== "session") return i - 1;
    const parent = this.ids.find(parentId);
    if (parent >= 0) return parent;
    this.missing++;
    return PARENT_MISSING;
  }

  private grow(capacity: number): void {
    const starts = new Float64Array(capacity);
    starts.set(this.starts);
    const lengths = new Uint32Array(capacity);
    lengths.set(this.lengths);
    const lines = new Uint32Array(capacity);
    lines.set(this.lines);
    const parents = new Int32Array(capacity);
    parents.set(this.parents);
    this.starts = starts;
    this.lengths = lengths;
    this.lines = lines;
    this.parents = parents;
  }
}

/** The typed columns of a {@link RecordTable}. */
export interface TableColumns {
  starts: Float64Array;
  lengths: Uint32Array;
  lines: Uint32Array;
  parents: Int32Array;
  idIndex: IdIndexState;
}
