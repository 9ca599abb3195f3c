import type { StoredEntryRecord } from "../session-storage";

/**
 * Records plus where each entry line lives in the file, kept compactly: byte offset (Float64, so files
 * above 4 GiB work), line length in bytes without the newline (Uint32) and 1-based line number
 * (Uint32). The file's text itself is never kept.
 */
export class RecordTable {
  readonly records: StoredEntryRecord[] = [];
  private starts: Float64Array;
  private lengths: Uint32Array;
  private lines: Uint32Array;

  constructor(capacity = 1024) {
    this.starts = new Float64Array(capacity);
    this.lengths = new Uint32Array(capacity);
    this.lines = new Uint32Array(capacity);
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

  /** Drops every record from index `count` on (used to roll back a failed batch append). */
  truncate(count: number): void {
    this.records.length = Math.min(count, this.records.length);
  }

  /** Copies of the location columns for `count` records, for the sidecar index. */
  columns(): { starts: Float64Array; lengths: Uint32Array; lines: Uint32Array } {
    const n = this.records.length;
    return {
      starts: this.starts.subarray(0, n),
      lengths: this.lengths.subarray(0, n),
      lines: this.lines.subarray(0, n),
    };
  }

  /** Replaces the location columns wholesale (sidecar index load). */
  adoptColumns(
    starts: Float64Array,
    lengths: Uint32Array,
    lines: Uint32Array,
    records: StoredEntryRecord[],
  ): void {
    const capacity = Math.max(1024, records.length * 2);
    this.starts = new Float64Array(capacity);
    this.lengths = new Uint32Array(capacity);
    this.lines = new Uint32Array(capacity);
    this.starts.set(starts);
    this.lengths.set(lengths);
    this.lines.set(lines);
    this.records.length = 0;
    for (const r of records) this.records.push(r);
  }

  clear(): void {
    this.records.length = 0;
  }

  private grow(capacity: number): void {
    const starts = new Float64Array(capacity);
    starts.set(this.starts);
    const lengths = new Uint32Array(capacity);
    lengths.set(this.lengths);
    const lines = new Uint32Array(capacity);
    lines.set(this.lines);
    this.starts = starts;
    this.lengths = lengths;
    this.lines = lines;
  }
}
