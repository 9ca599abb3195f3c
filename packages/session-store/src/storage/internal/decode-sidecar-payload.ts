import type { StorageLoadIssue, StoredEntryRecord } from "../session-storage";
import { CodedStrings } from "./coded-strings";
import { PackedIds } from "./packed-ids";
import { RecordColumnFields } from "./record-column-fields";
import { PARENT_ABSENT, PARENT_MISSING, PARENT_ROOT } from "./record-table";
import type { IndexedColumns, SidecarIndexData } from "./sidecar-index";

/**
 * The records and columns of a sidecar index's payload (layout: see `sidecar-index.ts`), `n` records
 * covering `coveredBytes` and `coveredLines` of the session file: the records as objects, or as
 * {@link IndexedColumns} when `columnar`. Typed columns are views of `payload` where aligned (a copy
 * otherwise), so the caller owns them with the payload. Throws on a payload that does not hold what it
 * says (the caller rescans the file).
 */
export function decodeSidecarPayload(
  payload: Buffer,
  n: number,
  coveredBytes: number,
  coveredLines: number,
  columnar: boolean,
): SidecarIndexData {
  let at = 0;
  /** The next `count` values as a view of the payload (a copy when not aligned), after `align` padding. */
  const take = <T extends Float64Array | Uint32Array | Int32Array | Uint16Array>(
    Column: { new (buffer: ArrayBufferLike, offset: number, length: number): T; new (length: number): T },
    size: number,
    count: number,
    align = 1,
  ): T => {
    at += (align - (at % align)) % align;
    const bytes = count * size;
    if (at + bytes > payload.length) throw new Error("payload too short");
    const offset = payload.byteOffset + at;
    at += bytes;
    if (offset % size === 0) return new Column(payload.buffer, offset, count);
    const copy = new Column(count);
    new Uint8Array(copy.buffer).set(payload.subarray(at - bytes, at));
    return copy;
  };
  const starts = take(Float64Array, 8, n);
  const lengths = take(Uint32Array, 4, n);
  const lines = take(Uint32Array, 4, n);
  const parentIndex = take(Int32Array, 4, n);
  const hashes = take(Uint32Array, 4, n);
  const typeIndex = take(Uint16Array, 2, n);
  const roleIndex = take(Uint16Array, 2, n);
  const slotCount = take(Uint32Array, 4, 1, 4)[0] as number;
  if (slotCount === 0 || (slotCount & (slotCount - 1)) !== 0) throw new Error("bad id table size");
  const slots = take(Int32Array, 4, slotCount, 4);
  at += (8 - (at % 8)) % 8;
  const meta = JSON.parse(payload.toString("utf8", at)) as {
    header: Record<string, unknown> | undefined;
    issues: StorageLoadIssue[];
    types: string[];
    roles: string[];
    ids: string | (string | null)[];
    parents: string[];
    idCount: number;
    duplicates: boolean;
  };
  for (let i = 0; i < n; i++) {
    const ref = parentIndex[i] as number;
    if (ref >= n) throw new Error("parent index out of range");
    if ((typeIndex[i] as number) >= meta.types.length || (roleIndex[i] as number) > meta.roles.length)
      throw new Error("type or role code out of range");
  }
  if (countIds(meta.ids, n) !== n) throw new Error("id count mismatch");
  const records = columnar
    ? columnsOf(meta, n, parentIndex, typeIndex, roleIndex)
    : objectsFrom(meta, n, parentIndex, typeIndex, roleIndex);
  return {
    header: meta.header,
    records,
    columns: {
      starts,
      lengths,
      lines,
      parents: parentIndex,
      idIndex: { slots, hashes, count: meta.idCount, duplicates: meta.duplicates },
    },
    issues: meta.issues,
    coveredBytes,
    coveredLines,
  };
}

/** What the payload's JSON part holds of the records. */
interface RecordMeta {
  types: string[];
  roles: string[];
  ids: string | (string | null)[];
  parents: string[];
}

/** How many ids `ids` holds (joined: one more than its newlines, none for an empty string when `n` is 0). */
function countIds(ids: string | readonly (string | null)[], n: number): number {
  if (typeof ids !== "string") return ids.length;
  if (n === 0 && ids === "") return 0;
  let count = 1;
  for (let at = ids.indexOf("\n"); at >= 0; at = ids.indexOf("\n", at + 1)) count++;
  return count;
}

/** The parent id of a record by its parent index (see the layout); `listed`: the next of `parents`. */
function parentIdOf(ref: number, idOf: (i: number) => string | undefined, listed: () => string) {
  if (ref >= 0) return idOf(ref);
  return ref === PARENT_ROOT ? null : ref === PARENT_ABSENT ? undefined : listed();
}

/** The records as objects. */
function objectsFrom(
  meta: RecordMeta,
  n: number,
  parentIndex: Int32Array,
  typeIndex: Uint16Array,
  roleIndex: Uint16Array,
): StoredEntryRecord[] {
  const ids = typeof meta.ids === "string" ? (n === 0 ? [] : meta.ids.split("\n")) : meta.ids;
  const records: StoredEntryRecord[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const role = roleIndex[i] as number;
    records[i] = {
      id: ids[i] ?? undefined,
      parentId: undefined,
      type: meta.types[typeIndex[i] as number] as string,
      role: role === 0 ? undefined : meta.roles[role - 1],
    };
  }
  let listed = 0;
  const next = () => meta.parents[listed++] as string;
  const idOf = (i: number) => records[i]?.id;
  for (let i = 0; i < n; i++)
    (records[i] as StoredEntryRecord).parentId = parentIdOf(parentIndex[i] as number, idOf, next);
  return records;
}

/** The records as columns: packed ids, type and role codes, and the parent ids no index gives. */
function columnsOf(
  meta: RecordMeta,
  n: number,
  parentIndex: Int32Array,
  typeIndex: Uint16Array,
  roleIndex: Uint16Array,
): IndexedColumns {
  // A coded column's code 0 is `undefined`: type codes move up by one, role codes already do.
  const typeCodes = new Uint16Array(n);
  for (let i = 0; i < n; i++) typeCodes[i] = (typeIndex[i] as number) + 1;
  const types = new CodedStrings(0, {
    codes: typeCodes,
    values: [undefined, ...meta.types],
    overflow: new Map(),
  });
  const roles = new CodedStrings(0, {
    codes: roleIndex,
    values: [undefined, ...meta.roles],
    overflow: new Map(),
  });
  const fields = new RecordColumnFields(0, { ids: PackedIds.of(meta.ids, n), types, roles });
  const missing = new Map<number, string>();
  let listed = 0;
  for (let i = 0; i < n; i++) {
    if (parentIndex[i] !== PARENT_MISSING) continue;
    const parentId = meta.parents[listed++];
    if (typeof parentId !== "string") throw new Error("missing parent id not listed");
    missing.set(i, parentId);
  }
  return { fields, missing };
}
