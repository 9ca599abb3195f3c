import type { StoredEntryRecord } from "../session-storage";
import { CodedStrings } from "./coded-strings";
import { LoadedRecords } from "./loaded-records";
import { PackedIds } from "./packed-ids";
import type { RecordFields } from "./record-fields";

/**
 * {@link RecordFields} as columns: packed ids ({@link PackedIds}), types and roles as 16-bit codes
 * ({@link CodedStrings}); no object and no id string per record. At 100k entries the record objects
 * and their id strings were most of what the garbage collector copied during an open.
 */
export class RecordColumnFields implements RecordFields {
  readonly ids: PackedIds;
  private readonly types: CodedStrings;
  private readonly roles: CodedStrings;

  /** Empty with room for `capacity` records, or made of the given columns (a sidecar index's). */
  constructor(capacity: number, from?: { ids: PackedIds; types: CodedStrings; roles: CodedStrings }) {
    this.ids = from?.ids ?? new PackedIds(capacity);
    this.types = from?.types ?? new CodedStrings(capacity);
    this.roles = from?.roles ?? new CodedStrings(capacity);
  }

  get size(): number {
    return this.ids.size;
  }

  set size(n: number) {
    this.ids.size = n;
  }

  grow(capacity: number): void {
    this.ids.grow(capacity);
    this.types.grow(capacity);
    this.roles.grow(capacity);
  }

  set(i: number, record: StoredEntryRecord): void {
    this.ids.set(i, record.id);
    this.types.set(i, record.type);
    this.roles.set(i, record.role);
  }

  /** Sets record `i` from what the load scan found: its id as the plain ASCII bytes `buf[start, end)`. */
  setScanned(
    i: number,
    buf: Uint8Array,
    start: number,
    end: number,
    type: string,
    role: string | undefined,
  ): void {
    this.ids.setBytes(i, buf, start, end);
    this.types.set(i, type);
    this.roles.set(i, role);
  }

  idOf(i: number): string | undefined {
    return this.ids.idOf(i);
  }

  hasId(i: number, id: string): boolean {
    return this.ids.hasId(i, id);
  }

  sameId(a: number, b: number): boolean {
    return this.ids.sameId(a, b);
  }

  isChain(parentId: string, i: number): boolean {
    return i > 0 && this.types.get(i - 1) !== "session" && this.ids.hasId(i - 1, parentId);
  }

  typeOf(i: number): string | undefined {
    return this.types.get(i);
  }

  roleOf(i: number): string | undefined {
    return this.roles.get(i);
  }

  truncate(count: number): void {
    this.ids.truncate(count);
    this.types.truncate(count);
    this.roles.truncate(count);
  }

  /** Copies of the first `n` records' columns, their parent indices and unresolved parent ids. */
  loaded(n: number, parents: Int32Array, missing: ReadonlyMap<number, string>): LoadedRecords {
    const kept = new Map<number, string>();
    for (const [i, parentId] of missing) if (i < n) kept.set(i, parentId);
    return new LoadedRecords(
      n,
      this.ids.snapshot(n),
      this.types.snapshot(n),
      this.roles.snapshot(n),
      parents.slice(0, n),
      kept,
    );
  }
}
