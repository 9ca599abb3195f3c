import { CodedStrings } from "./coded-strings";
import { PackedIds } from "./packed-ids";

/**
 * The per-record columns of a `RecordTable`, which grow together: where each entry line is (byte
 * offset as a Float64, so files above 4 GiB work; length without the newline; 1-based line number),
 * and each record's packed id, type and role codes, parent index and id hash. No object per record.
 */
export class RecordStore {
  protected readonly ids: PackedIds;
  protected readonly types: CodedStrings;
  protected readonly roles: CodedStrings;
  protected count = 0;
  protected starts: Float64Array;
  protected lengths: Uint32Array;
  protected lines: Uint32Array;
  protected parents: Int32Array;
  /** `IdIndex.hash` of each record's id, for the records not yet in the id index (0 without an id). */
  protected idHashes: Uint32Array;

  constructor(capacity: number) {
    this.starts = new Float64Array(capacity);
    this.lengths = new Uint32Array(capacity);
    this.lines = new Uint32Array(capacity);
    this.parents = new Int32Array(capacity);
    this.idHashes = new Uint32Array(capacity);
    this.ids = new PackedIds(capacity);
    this.types = new CodedStrings(capacity);
    this.roles = new CodedStrings(capacity);
  }

  /** Records held. */
  get size(): number {
    return this.count;
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

  /** Id of record `i` (a new string; `undefined` for a version-1 entry or outside the table). */
  idOf(i: number): string | undefined {
    return this.ids.idOf(i);
  }

  /** Type of record `i` (`undefined` outside the table). */
  typeOf(i: number): string | undefined {
    return i < this.count ? this.types.get(i) : undefined;
  }

  /** Adds the columns of a new record but its id, id hash and parent; returns its index. */
  protected add(type: string, role: string | undefined, start: number, length: number, line: number): number {
    const i = this.count;
    if (i === this.starts.length) this.grow(i * 2);
    this.count = i + 1;
    this.ids.size = i + 1;
    this.types.set(i, type);
    this.roles.set(i, role);
    this.starts[i] = start;
    this.lengths[i] = length;
    this.lines[i] = line;
    return i;
  }

  /** Makes room for `capacity` records (more than held now). */
  protected grow(capacity: number): void {
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
    this.ids.grow(capacity);
    this.types.grow(capacity);
    this.roles.grow(capacity);
    this.starts = starts;
    this.lengths = lengths;
    this.lines = lines;
    this.parents = parents;
  }
}
