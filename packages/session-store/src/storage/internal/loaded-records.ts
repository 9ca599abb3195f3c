import type { RecordColumns } from "../../internal/record-columns";
import type { StorageLoadIssue, StorageLoadResult, StoredEntryRecord } from "../session-storage";
import type { CodedStrings } from "./coded-strings";
import type { PackedIds } from "./packed-ids";

/** `parentIndex` value of a root (`parentId: null`). */
export const PARENT_ROOT = -1;
/** `parentIndex` value when the entry has no `parentId` field (version-1 entries). */
export const PARENT_ABSENT = -2;
/** `parentIndex` value when no record has the entry's `parentId`. */
export const PARENT_MISSING = -3;

/**
 * The light records of a load as columns, with no object per record: a record's `parentId` is the id
 * of the record its parent index names (`null` and `undefined` for roots and version-1 entries), or,
 * when no record has it, the string kept in `missing`. The arrays are the storage's own copies, never
 * changed after the load.
 */
export class LoadedRecords implements RecordColumns {
  constructor(
    readonly size: number,
    private readonly ids: PackedIds,
    private readonly types: CodedStrings,
    private readonly roles: CodedStrings,
    private readonly parents: Int32Array,
    private readonly missing: ReadonlyMap<number, string>,
  ) {}

  idOf(index: number): string | undefined {
    return this.ids.idOf(index);
  }

  hasId(index: number): boolean {
    return this.ids.has(index);
  }

  copyIdBytes(index: number, out: Uint8Array, at: number): number {
    return this.ids.copyIdBytes(index, out, at);
  }

  typeOf(index: number): string {
    return this.types.get(index) as string;
  }

  roleOf(index: number): string | undefined {
    return this.roles.get(index);
  }

  knownTypes(): string[] {
    return this.types.knownValues();
  }

  parentIdOf(index: number): string | null | undefined {
    const parent = this.parents[index] as number;
    if (parent >= 0) return this.ids.idOf(parent);
    if (parent === PARENT_ROOT) return null;
    if (parent === PARENT_ABSENT) return undefined;
    return this.missing.get(index);
  }

  hasParentId(index: number): boolean {
    const parent = this.parents[index] as number;
    if (parent >= 0) return this.ids.hasNonEmptyId(parent);
    return parent === PARENT_MISSING && !!this.missing.get(index);
  }

  /** The records as objects (what `StorageLoadResult.records` holds). */
  toArray(): StoredEntryRecord[] {
    const records: StoredEntryRecord[] = new Array(this.size);
    for (let i = 0; i < this.size; i++) {
      records[i] = {
        id: this.ids.idOf(i),
        parentId: this.parentIdOf(i),
        type: this.typeOf(i),
        role: this.roles.get(i),
      };
    }
    return records;
  }
}

/** Where a load result made by {@link loadResultOf} keeps its columns (not enumerable: spreads drop it). */
const COLUMNS = Symbol("arbor.loadedRecords");

/**
 * A load result whose `records` array is made from `loaded` on first access (and is the caller's, as
 * the contract says), so that the store, which reads `loaded` itself (see {@link loadedColumnsOf}),
 * never makes an object per record: at 100k entries those objects were most of what the garbage
 * collector copied during an open. Records given as an array (a small session's) are the result's
 * `records` as they are.
 */
export function loadResultOf(
  header: Record<string, unknown> | undefined,
  issues: StorageLoadIssue[],
  loaded: LoadedRecords | StoredEntryRecord[],
  parentIndex: Int32Array,
  repeatedIds: boolean,
): StorageLoadResult {
  if (Array.isArray(loaded)) return { header, records: loaded, issues, parentIndex, repeatedIds };
  let records: StoredEntryRecord[] | undefined;
  const result: StorageLoadResult = {
    header,
    get records(): StoredEntryRecord[] {
      records ??= loaded.toArray();
      return records;
    },
    set records(value: StoredEntryRecord[]) {
      records = value;
    },
    issues,
    parentIndex,
    repeatedIds,
  };
  // Only while `records` was never asked for: a caller that did may have changed the array.
  const columns = (): LoadedRecords | undefined => (records === undefined ? loaded : undefined);
  Object.defineProperty(result, COLUMNS, { value: columns, enumerable: false });
  return result;
}

/**
 * The columns behind a load result made by {@link loadResultOf}, when its `records` were never
 * materialized; `undefined` for any other result (a custom backend's, or a copy of one).
 */
export function loadedColumnsOf(result: StorageLoadResult): RecordColumns | undefined {
  const columns = (result as { [COLUMNS]?: () => LoadedRecords | undefined })[COLUMNS];
  return typeof columns === "function" ? columns() : undefined;
}
