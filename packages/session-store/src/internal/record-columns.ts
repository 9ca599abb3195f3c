import type { StoredEntryRecord } from "../storage/session-storage";

/**
 * The light records of loaded entries, read field by field (see `StoredEntryRecord`): the store reads
 * them this way so that a backend can keep them as columns, without an object per record.
 */
export interface RecordColumns {
  /** Number of records. */
  readonly size: number;
  /** The record's id (`undefined` for a version-1 entry). */
  idOf(index: number): string | undefined;
  /** True when `idOf(index)` is a string (asked without making the string). */
  hasId(index: number): boolean;
  /** The record's `parentId`. */
  parentIdOf(index: number): string | null | undefined;
  /** True when `parentIdOf(index)` is a string other than `""` (asked without making the string). */
  hasParentId(index: number): boolean;
  /** The record's `type`. */
  typeOf(index: number): string;
  /** The record's `message.role`, when it has one. */
  roleOf(index: number): string | undefined;
  /**
   * Optional: every type some record has, perhaps with types no record has (a superset), known
   * without reading each record (columns keep their types as codes of a small dictionary).
   */
  knownTypes?(): readonly string[];
  /**
   * Optional: copies the bytes of the record's id into `out` at `at` when the columns keep it as
   * ASCII bytes (at most 8) and returns how many; 0 when they do not (the id is then read with
   * `idOf`). `out` must have room for 8 bytes at `at`.
   */
  copyIdBytes?(index: number, out: Uint8Array, at: number): number;
}

/** {@link RecordColumns} over an array of records (a custom backend's, or migrated entries'). */
export class RecordArray implements RecordColumns {
  constructor(private readonly records: readonly StoredEntryRecord[]) {}

  get size(): number {
    return this.records.length;
  }

  idOf(index: number): string | undefined {
    return (this.records[index] as StoredEntryRecord).id;
  }

  hasId(index: number): boolean {
    return (this.records[index] as StoredEntryRecord).id !== undefined;
  }

  parentIdOf(index: number): string | null | undefined {
    return (this.records[index] as StoredEntryRecord).parentId;
  }

  hasParentId(index: number): boolean {
    return !!(this.records[index] as StoredEntryRecord).parentId;
  }

  typeOf(index: number): string {
    return (this.records[index] as StoredEntryRecord).type;
  }

  roleOf(index: number): string | undefined {
    return (this.records[index] as StoredEntryRecord).role;
  }
}
