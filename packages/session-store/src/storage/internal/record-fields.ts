import type { StoredEntryRecord } from "../session-storage";
import type { LoadedRecords } from "./loaded-records";
import type { RecordIds } from "./record-ids";

/**
 * The id, type and role of each record of a `RecordTable` (the rest is in the table's typed
 * columns): one object per record (`RecordObjects`, for small sessions) or columns without an object
 * or an id string per record (`RecordColumnFields`, for large ones).
 */
export interface RecordFields extends RecordIds {
  /** Records held (set by the table as it adds and drops records). */
  size: number;
  /** The ids, as an id index reads them. */
  readonly ids: RecordIds;
  /** Keeps room for `capacity` records. */
  grow(capacity: number): void;
  /** Sets the fields of record `i` from `record` (which may be kept: do not change it afterwards). */
  set(i: number, record: StoredEntryRecord): void;
  /** True when the record before `i` has the id `parentId` and is not a stray session line. */
  isChain(parentId: string, i: number): boolean;
  /** The type of record `i` (held). */
  typeOf(i: number): string | undefined;
  /** The `message.role` of record `i` (held), when it has one. */
  roleOf(i: number): string | undefined;
  /** Drops the fields of records from `count` on. */
  truncate(count: number): void;
  /**
   * The first `n` records for a load result, unaffected by later changes to the table: columns (with
   * copies of `parents` and `missing`, the table's parent indices and unresolved parent ids), or an
   * array.
   */
  loaded(
    n: number,
    parents: Int32Array,
    missing: ReadonlyMap<number, string>,
  ): LoadedRecords | StoredEntryRecord[];
}
