import type { StorageLoadIssue, StorageLoadResult, StoredEntryRecord } from "../session-storage";
import { IdIndex, type IdIndexState } from "./id-index";
import {
  type LoadedRecords,
  loadResultOf,
  PARENT_ABSENT,
  PARENT_MISSING,
  PARENT_ROOT,
} from "./loaded-records";
import { MapIdIndex } from "./map-id-index";
import type { RecordColumnFields } from "./record-column-fields";
import { RecordStore } from "./record-store";
import type { IndexedColumns } from "./sidecar-index";

export { RECORD_COLUMNS_MIN_BYTES, RECORD_COLUMNS_MIN_ENTRIES } from "./record-store";
export { PARENT_ABSENT, PARENT_MISSING, PARENT_ROOT };

/**
 * Records plus where each entry line lives in the file, kept compactly: byte offset (Float64, so files
 * above 4 GiB work), line length in bytes without the newline (Uint32), 1-based line number (Uint32)
 * and the index of the parent record (Int32, resolved through an {@link IdIndex}; the last record
 * with an id wins, as in pi). The file's text itself is never kept.
 *
 * The records of a large session are columns too, not one object per record
 * ({@link RecordTable.useColumns}): packed ids, types and roles as 16-bit codes, and a `parentId` only
 * where the parent index does not give it (a parent no record has, or one not resolved yet). At 100k
 * entries the record objects were most of what the garbage collector copied during an open
 * ({@link RecordTable.loadResult} hands the columns to the store; {@link RecordTable.records} makes
 * objects where they are needed). A small session keeps the objects the scan made.
 *
 * Pushes are cheap: a parent on the record before (a chain, the common case) resolves at once; ids
 * go into the id index, and other parents are resolved, in one batch when something next asks for
 * ids or parents ({@link RecordTable.settleParents}, which every such reader calls). Inserting each id
 * as the scan streamed the file through the cache cost about a fifth of a cold open at 100k entries.
 */
export class RecordTable extends RecordStore {
  /** `parentId` of the records whose parent index is `PARENT_MISSING` (unresolved or not yet resolved). */
  private readonly missing = new Map<number, string>();
  /** Records from this index on are not in `index` yet. */
  private indexed = 0;
  /** Records pushed since the last batch whose parent is not the record before. */
  private pending: number[] = [];
  /** Records whose parent no record had when last resolved (a later record may have it). */
  private unresolved: number[] = [];
  /** The parent ids `unresolved` wait for (built when first needed, dropped when it changes). */
  private awaited: Set<string> | undefined;
  /** Records pushed since the last batch that the id index skips (no id, or a stray session line). */
  private unindexed: number[] = [];

  /**
   * Adds a record (kept as it is by a table of objects: do not change it afterwards). `idHash`, when given, must be
   * `IdIndex.hash(record.id)` (the scanner computes it from the id's bytes, sparing the id index a
   * pass over the string).
   */
  push(record: StoredEntryRecord, start: number, length: number, line: number, idHash?: number): void {
    const i = this.add(start, length, line);
    const id = record.id;
    this.fields.set(i, record);
    if (id === undefined || record.type === "session") this.unindexed.push(i);
    else if (!this.mapIndex) this.idHashes[i] = idHash ?? IdIndex.hash(id);
    const parentId = record.parentId;
    if (parentId === null) this.parents[i] = PARENT_ROOT;
    else if (parentId === undefined) this.parents[i] = PARENT_ABSENT;
    else if (this.fields.isChain(parentId, i)) this.parents[i] = i - 1;
    else this.leaveOpen(i, parentId);
  }

  /**
   * {@link push} of a record the load scan found, without making its id a string: the id is the
   * plain ASCII bytes `buf[idStart, idEnd)`, `idHash` their `IdIndex.hash`, and `parentId`
   * `undefined` means the id of the record pushed just before (the scan saw the same bytes).
   * Only for a table of columns ({@link RecordTable.useColumns}).
   */
  pushScanned(
    buf: Uint8Array,
    idStart: number,
    idEnd: number,
    idHash: number,
    parentId: string | null | undefined,
    type: string,
    role: string | undefined,
    start: number,
    length: number,
    line: number,
  ): void {
    const columns = this.columnar as RecordColumnFields;
    const i = this.add(start, length, line);
    columns.setScanned(i, buf, idStart, idEnd, type, role);
    if (type === "session") this.unindexed.push(i);
    else this.idHashes[i] = idHash;
    if (parentId === null) this.parents[i] = PARENT_ROOT;
    else if (parentId === undefined && i > 0 && columns.typeOf(i - 1) !== "session") this.parents[i] = i - 1;
    else if (parentId === undefined) this.leaveOpen(i, columns.idOf(i - 1) as string);
    else if (this.fields.isChain(parentId, i)) this.parents[i] = i - 1;
    else this.leaveOpen(i, parentId);
  }

  /** Record `i`'s parent is resolved in the next batch ({@link RecordTable.settleParents}). */
  private leaveOpen(i: number, parentId: string): void {
    this.parents[i] = PARENT_MISSING;
    this.missing.set(i, parentId);
    this.pending.push(i);
  }

  /** Makes room for about `expected` records up front (avoids regrowing while scanning a big file). */
  reserve(expected: number): void {
    if (expected > this.starts.length) this.grow(expected);
    this.index.reserve(expected);
  }

  /** Every record as an object, in order (a new array). */
  records(): StoredEntryRecord[] {
    const loaded = this.loaded();
    return Array.isArray(loaded) ? loaded : loaded.toArray();
  }

  /**
   * What `SessionStorage.load` returns for the records held: with their columns (see
   * `loadResultOf`) or their array, the parent indices and whether ids repeat.
   */
  loadResult(header: Record<string, unknown> | undefined, issues: StorageLoadIssue[]): StorageLoadResult {
    return loadResultOf(header, issues, this.loaded(), this.parentIndex(), this.repeatedIds());
  }

  /** The records, unaffected by later changes to the table: columns (copies) or an array. */
  private loaded(): LoadedRecords | StoredEntryRecord[] {
    this.settleParents();
    return this.fields.loaded(this.count, this.parents, this.missing);
  }

  /** The parent id of record `i` when no record has it (its parent index is `PARENT_MISSING`). */
  missingParentOf(i: number): string | undefined {
    return this.missing.get(i);
  }

  /** Index of the last record with `id` (not counting `type: "session"` lines), or -1. */
  indexOfId(id: string): number {
    this.settleParents();
    return this.index.find(id);
  }

  /**
   * Adds the records pushed since the last call to the id index and resolves the parents left open:
   * those not on the record before, and those no record had so far. When an id turned out repeated,
   * every parent is resolved again (the last record with an id wins, which may change a chain link).
   * Cheap when nothing was pushed since; readers of ids and parents call it themselves.
   */
  settleParents(): void {
    const size = this.count;
    if (this.indexed === size && this.pending.length === 0) return;
    const from = this.indexed;
    const repeats = this.index.repeats;
    this.index.insertMany(from, size, this.idHashes, this.unindexed);
    this.indexed = size;
    this.unindexed = [];
    if (this.index.repeats !== repeats) {
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
      for (const i of this.unresolved) awaited.add(this.missing.get(i) as string);
      this.awaited = awaited;
    }
    for (let i = from; i < to; i++) {
      if (this.fields.typeOf(i) === "session") continue;
      const id = this.fields.idOf(i);
      if (id !== undefined && awaited.has(id)) return true;
    }
    return false;
  }

  /** Whether two records share an id (`type: "session"` lines never count). */
  repeatedIds(): boolean {
    this.settleParents();
    return this.index.duplicates;
  }

  /** A copy of the parent indices of every record. */
  parentIndex(): Int32Array {
    this.settleParents();
    return this.parents.slice(0, this.count);
  }

  /** Drops every record from index `count` on (used to roll back a failed batch append). */
  truncate(count: number): void {
    if (count >= this.count) return;
    this.settleParents();
    // A kept record whose parent is dropped keeps its parent id (resolved again below).
    for (let i = 0; i < count; i++) {
      const parent = this.parents[i] as number;
      if (parent >= count) {
        this.missing.set(i, this.fields.idOf(parent) as string);
        this.parents[i] = PARENT_MISSING;
      }
    }
    for (const i of [...this.missing.keys()]) if (i >= count) this.missing.delete(i);
    this.fields.truncate(count);
    this.count = count;
    // Rare: rebuild rather than un-insert.
    this.index = this.mapIndex
      ? MapIdIndex.build(this.fields.ids, this.isSession)
      : IdIndex.build(this.fields.ids, this.isSession);
    this.indexed = count;
    this.unindexed = [];
    this.resolveAll();
  }

  /** Views of the columns for `size` records and the id index, for the sidecar index. */
  columns(): TableColumns {
    this.settleParents();
    const n = this.count;
    return {
      starts: this.starts.subarray(0, n),
      lengths: this.lengths.subarray(0, n),
      lines: this.lines.subarray(0, n),
      parents: this.parents.subarray(0, n),
      idIndex: this.index.state(),
    };
  }

  /**
   * Replaces everything with a sidecar index's content: record objects, or (for a table of columns)
   * its columns, which the table then owns (no copy).
   */
  adopt(records: StoredEntryRecord[] | IndexedColumns, columns: TableColumns): void {
    this.clear();
    if (!Array.isArray(records)) {
      this.adoptColumns(records, columns);
      return;
    }
    const capacity = Math.max(1024, records.length * 2);
    if (capacity > this.starts.length) this.grow(capacity);
    this.starts.set(columns.starts);
    this.lengths.set(columns.lengths);
    this.lines.set(columns.lines);
    this.parents.set(columns.parents);
    for (let i = 0; i < records.length; i++) {
      const r = records[i] as StoredEntryRecord;
      this.fields.set(i, r);
      if (this.parents[i] !== PARENT_MISSING) continue;
      this.missing.set(i, r.parentId as string);
      this.unresolved.push(i);
    }
    this.count = records.length;
    this.fields.size = records.length;
    this.index = IdIndex.restore(this.fields.ids, columns.idIndex);
    this.mapIndex = false;
    this.indexed = records.length;
  }

  /** {@link adopt} of columns: the arrays become the table's own. */
  private adoptColumns({ fields, missing }: IndexedColumns, columns: TableColumns): void {
    const n = fields.size;
    this.takeColumns(fields, columns);
    for (const [i, parentId] of missing) {
      this.missing.set(i, parentId);
      this.unresolved.push(i);
    }
    this.count = n;
    this.index = IdIndex.restore(fields.ids, columns.idIndex, true);
    this.mapIndex = false;
    this.indexed = n;
  }

  clear(): void {
    this.fields.truncate(0);
    this.missing.clear();
    this.count = 0;
    this.index = this.mapIndex
      ? new MapIdIndex(this.fields.ids, this.isSession)
      : new IdIndex(this.fields.ids, this.starts.length);
    this.indexed = 0;
    this.pending = [];
    this.unresolved = [];
    this.awaited = undefined;
    this.unindexed = [];
  }

  /** Resolves the parent of record `i` (whose `parentId` is a string) through the id index. */
  private resolveFromIndex(i: number): void {
    const parent = this.parents[i] as number;
    const parentId =
      parent >= 0 ? this.fields.idOf(parent) : parent === PARENT_MISSING ? this.missing.get(i) : undefined;
    if (parentId === undefined) return;
    const found = this.index.find(parentId);
    if (found >= 0) {
      this.parents[i] = found;
      if (parent < 0) this.missing.delete(i);
      return;
    }
    this.parents[i] = PARENT_MISSING;
    if (parent >= 0) this.missing.set(i, parentId);
    this.unresolved.push(i);
    this.awaited = undefined;
  }

  /** Resolves every parent again from the id index (after a repeated id or a truncation). */
  private resolveAll(): void {
    this.pending = [];
    this.unresolved = [];
    this.awaited = undefined;
    for (let i = 0; i < this.count; i++) this.resolveFromIndex(i);
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
