import type { StoredEntryRecord } from "../session-storage";
import { IdIndex, type IdIndexState } from "./id-index";
import { MapIdIndex } from "./map-id-index";

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
 *
 * Pushes are cheap: a parent on the record before (a chain, the common case) resolves at once; ids
 * go into the id index, and other parents are resolved, in one batch when something next asks for
 * ids or parents ({@link RecordTable.settleParents}, which every such reader calls). Inserting each id
 * as the scan streamed the file through the cache cost about a fifth of a cold open at 100k entries.
 */
export class RecordTable {
  readonly records: StoredEntryRecord[] = [];
  private starts: Float64Array;
  private lengths: Uint32Array;
  private lines: Uint32Array;
  private parents: Int32Array;
  /** `IdIndex.hash` of each record's id, for the records not yet in `ids` (0 without an id). */
  private idHashes: Uint32Array;
  private ids: IdIndex | MapIdIndex;
  /** Whether `ids` is a {@link MapIdIndex} (see {@link RecordTable.useMapIndex}): pushes then skip the id hash. */
  private mapIndex = false;
  /** Records from this index on are not in `ids` yet. */
  private indexed = 0;
  /** Records pushed since the last batch whose parent is not the record before. */
  private pending: number[] = [];
  /** Records whose parent no record had when last resolved (a later record may have it). */
  private unresolved: number[] = [];
  /** The parent ids `unresolved` wait for (built when first needed, dropped when it changes). */
  private awaited: Set<string> | undefined;
  /** Records pushed since the last batch that the id index skips (no id, or a stray session line). */
  private unindexed: number[] = [];

  constructor(capacity = 1024) {
    this.starts = new Float64Array(capacity);
    this.lengths = new Uint32Array(capacity);
    this.lines = new Uint32Array(capacity);
    this.parents = new Int32Array(capacity);
    this.idHashes = new Uint32Array(capacity);
    this.ids = new IdIndex(this.records, capacity);
  }

  get size(): number {
    return this.records.length;
  }

  /**
   * Adds a record. `idHash`, when given, must be `IdIndex.hash(record.id)` (the scanner computes it
   * from the id's bytes, sparing the id index a pass over the string).
   */
  push(record: StoredEntryRecord, start: number, length: number, line: number, idHash?: number): void {
    const i = this.records.length;
    if (i === this.starts.length) this.grow(i * 2);
    this.records.push(record);
    this.starts[i] = start;
    this.lengths[i] = length;
    this.lines[i] = line;
    if (record.id === undefined || record.type === "session") this.unindexed.push(i);
    else if (!this.mapIndex) this.idHashes[i] = idHash ?? IdIndex.hash(record.id);
    const parentId = record.parentId;
    if (parentId === null) this.parents[i] = PARENT_ROOT;
    else if (parentId === undefined) this.parents[i] = PARENT_ABSENT;
    else if (this.isChain(parentId, i)) this.parents[i] = i - 1;
    else {
      this.parents[i] = PARENT_MISSING; // until the next batch
      this.pending.push(i);
    }
  }

  /**
   * Keeps the id index in a `Map` ({@link MapIdIndex}) instead of the typed-array {@link IdIndex}, so
   * that no id is hashed in JavaScript: for a small session about to be scanned (an empty table).
   * Lookups, parents and a saved sidecar index are the same either way.
   */
  useMapIndex(): void {
    if (this.records.length > 0 || this.mapIndex) return;
    this.ids = new MapIdIndex(this.records);
    this.mapIndex = true;
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
    this.settleParents();
    return this.ids.find(id);
  }

  /**
   * Adds the records pushed since the last call to the id index and resolves the parents left open:
   * those not on the record before, and those no record had so far. When an id turned out repeated,
   * every parent is resolved again (the last record with an id wins, which may change a chain link).
   * Cheap when nothing was pushed since; readers of ids and parents call it themselves.
   */
  settleParents(): void {
    const size = this.records.length;
    if (this.indexed === size && this.pending.length === 0) return;
    const from = this.indexed;
    const repeats = this.ids.repeats;
    this.ids.insertMany(from, size, this.idHashes, this.unindexed);
    this.indexed = size;
    this.unindexed = [];
    if (this.ids.repeats !== repeats) {
      this.resolveAll();
      return;
    }
    // Earlier orphans are looked up again only when a new record has an id one of them waits for
    // (an append to a file with many orphans stays cheap).
    const retry = this.unresolved.length > 0 && this.bringsAwaitedId(from, size);
    const open = retry ? this.unresolved.concat(this.pending) : this.pending;
    this.pending = [];
    if (retry) {
      this.unresolved = [];
      this.awaited = undefined;
    }
    for (const i of open) this.resolveFromIndex(i);
  }

  /** True when a record of `[from, to)` has the id some unresolved record names as its parent. */
  private bringsAwaitedId(from: number, to: number): boolean {
    let awaited = this.awaited;
    if (awaited === undefined) {
      awaited = new Set<string>();
      for (const i of this.unresolved) awaited.add((this.records[i] as StoredEntryRecord).parentId as string);
      this.awaited = awaited;
    }
    for (let i = from; i < to; i++) {
      const record = this.records[i] as StoredEntryRecord;
      if (record.id !== undefined && record.type !== "session" && awaited.has(record.id)) return true;
    }
    return false;
  }

  /** Whether two records share an id (`type: "session"` lines never count). */
  repeatedIds(): boolean {
    this.settleParents();
    return this.ids.duplicates;
  }

  /** A copy of the parent indices of every record. */
  parentIndex(): Int32Array {
    this.settleParents();
    return this.parents.slice(0, this.records.length);
  }

  /** Drops every record from index `count` on (used to roll back a failed batch append). */
  truncate(count: number): void {
    if (count >= this.records.length) return;
    this.records.length = count;
    // Rare: rebuild rather than un-insert.
    this.ids = this.mapIndex ? MapIdIndex.build(this.records) : IdIndex.build(this.records);
    this.indexed = count;
    this.unindexed = [];
    this.resolveAll();
  }

  /** Views of the columns for `size` records and the id index, for the sidecar index. */
  columns(): TableColumns {
    this.settleParents();
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
    this.idHashes = new Uint32Array(capacity);
    this.starts.set(columns.starts);
    this.lengths.set(columns.lengths);
    this.lines.set(columns.lines);
    this.parents.set(columns.parents);
    this.records.length = 0;
    for (const r of records) this.records.push(r);
    this.ids = IdIndex.restore(this.records, columns.idIndex);
    this.mapIndex = false;
    this.indexed = records.length;
    this.pending = [];
    this.unresolved = [];
    this.awaited = undefined;
    this.unindexed = [];
    for (let i = 0; i < records.length; i++) if (this.parents[i] === PARENT_MISSING) this.unresolved.push(i);
  }

  clear(): void {
    this.records.length = 0;
    this.ids = this.mapIndex ? new MapIdIndex(this.records) : new IdIndex(this.records, this.starts.length);
    this.indexed = 0;
    this.pending = [];
    this.unresolved = [];
    this.awaited = undefined;
    this.unindexed = [];
  }

  /** True when the record before `i` has the id `parentId` (and is not a stray session line). */
  private isChain(parentId: string, i: number): boolean {
    const previous = this.records[i - 1];
    return previous !== undefined && previous.id === parentId && previous.type !== "session";
  }

  /** Resolves the parent of record `i` (whose `parentId` is a string) through the id index. */
  private resolveFromIndex(i: number): void {
    const parentId = (this.records[i] as StoredEntryRecord).parentId;
    if (typeof parentId !== "string") return;
    const parent = this.ids.find(parentId);
    this.parents[i] = parent < 0 ? PARENT_MISSING : parent;
    if (parent < 0) {
      this.unresolved.push(i);
      this.awaited = undefined;
    }
  }

  /** Resolves every parent again from the id index (after a repeated id or a truncation). */
  private resolveAll(): void {
    this.pending = [];
    this.unresolved = [];
    this.awaited = undefined;
    for (let i = 0; i < this.records.length; i++) this.resolveFromIndex(i);
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
    const idHashes = new Uint32Array(capacity);
    idHashes.set(this.idHashes);
    this.idHashes = idHashes;
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
