import { IdIndex } from "./id-index";
import { MapIdIndex } from "./map-id-index";
import { RecordColumnFields } from "./record-column-fields";
import type { RecordFields } from "./record-fields";
import { RecordObjects } from "./record-objects";

/**
 * Sessions of at least this many bytes keep their records as columns ({@link RecordStore.useColumns}),
 * smaller ones as objects: below it, the columns made the open slower (measured: bench/compare-builds
 * at 1k and 10k entries, 2 and 19 MB).
 */
export const RECORD_COLUMNS_MIN_BYTES = 32 * 1024 * 1024;
/** {@link RECORD_COLUMNS_MIN_BYTES} as entries, for a backend that has no bytes to count (PostgreSQL rows). */
export const RECORD_COLUMNS_MIN_ENTRIES = 16_000;

/**
 * The per-record columns of a `RecordTable`, which grow together: where each entry line is (byte
 * offset as a Float64, so files above 4 GiB work; length without the newline; 1-based line number),
 * and each record's parent index and id hash; the records' ids, types and roles are in `fields`
 * (objects, or columns without an object per record once the table {@link RecordStore.columnar} is set).
 */
export class RecordStore {
  protected fields: RecordFields = new RecordObjects();
  /** `fields` when they are columns (set by the table, while empty). */
  protected columnar: RecordColumnFields | undefined;
  protected count = 0;
  protected starts: Float64Array;
  protected lengths: Uint32Array;
  protected lines: Uint32Array;
  protected parents: Int32Array;
  /** `IdIndex.hash` of each record's id, for the records not yet in the id index (0 without an id). */
  protected idHashes: Uint32Array;
  protected index: IdIndex | MapIdIndex;
  /** Whether `index` is a {@link MapIdIndex} (see {@link RecordStore.useMapIndex}): pushes then skip the id hash. */
  protected mapIndex = false;

  constructor(capacity = 1024) {
    this.starts = new Float64Array(capacity);
    this.lengths = new Uint32Array(capacity);
    this.lines = new Uint32Array(capacity);
    this.parents = new Int32Array(capacity);
    this.idHashes = new Uint32Array(capacity);
    this.index = new IdIndex(this.fields.ids, capacity);
  }

  /**
   * Keeps the id index in a `Map` ({@link MapIdIndex}) instead of the typed-array {@link IdIndex}, so
   * that no id is hashed in JavaScript: for a small session about to be scanned (an empty table).
   * Lookups, parents and a saved sidecar index are the same either way.
   */
  useMapIndex(): void {
    if (this.count > 0 || this.mapIndex) return;
    this.index = new MapIdIndex(this.fields.ids, this.isSession);
    this.mapIndex = true;
  }

  /**
   * Keeps the records as columns (`true`, for a large session about to be scanned: see
   * {@link RecordColumnFields}) or as the objects the scan made (`false`, the default). Only while the
   * table is empty; the id index starts again empty.
   */
  useColumns(columns: boolean): void {
    if (this.count > 0 || columns === (this.columnar !== undefined)) return;
    this.columnar = columns ? new RecordColumnFields(this.starts.length) : undefined;
    this.fields = this.columnar ?? new RecordObjects();
    this.index = this.mapIndex
      ? new MapIdIndex(this.fields.ids, this.isSession)
      : new IdIndex(this.fields.ids, this.starts.length);
  }

  /** Whether the records are columns ({@link RecordStore.useColumns}). */
  get isColumnar(): boolean {
    return this.columnar !== undefined;
  }

  /** True when record `i` is a `type: "session"` line (never in the id index). */
  protected readonly isSession = (i: number): boolean => this.fields.typeOf(i) === "session";

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
    return this.fields.idOf(i);
  }

  /** Type of record `i` (`undefined` outside the table). */
  typeOf(i: number): string | undefined {
    return i < this.count ? this.fields.typeOf(i) : undefined;
  }

  /** The `message.role` of record `i`, when it has one. */
  roleOf(i: number): string | undefined {
    return i < this.count ? this.fields.roleOf(i) : undefined;
  }

  /** Adds the columns of a new record but its fields, id hash and parent; returns its index. */
  protected add(start: number, length: number, line: number): number {
    const i = this.count;
    if (i === this.starts.length) this.grow(i * 2);
    this.count = i + 1;
    this.fields.size = i + 1;
    this.starts[i] = start;
    this.lengths[i] = length;
    this.lines[i] = line;
    return i;
  }

  /** Makes room for `capacity` records (more than held now). */
  /**
   * Makes `fields` and the typed columns the store's own (no copy), for `fields.size` records; room
   * for appends is made when they leave too little.
   */
  protected takeColumns(
    fields: RecordColumnFields,
    columns: { starts: Float64Array; lengths: Uint32Array; lines: Uint32Array; parents: Int32Array },
  ): void {
    this.columnar = fields;
    this.fields = fields;
    this.starts = columns.starts;
    this.lengths = columns.lengths;
    this.lines = columns.lines;
    this.parents = columns.parents;
    // Hashes of records appended later (the id index keeps those of the taken ones).
    this.idHashes = new Uint32Array(fields.size);
    // A store never has room for fewer than 1,024 records (see `add`, which doubles it).
    if (this.starts.length < 1024) this.grow(1024);
  }

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
    this.fields.grow(capacity);
    this.starts = starts;
    this.lengths = lengths;
    this.lines = lines;
    this.parents = parents;
  }
}
