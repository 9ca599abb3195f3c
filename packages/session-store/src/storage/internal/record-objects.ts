import type { StoredEntryRecord } from "../session-storage";
import type { RecordFields } from "./record-fields";

/**
 * {@link RecordFields} as one object per record, as the scan made it: for a small session, whose
 * open is short enough that the columns' extra code (more functions for V8 to compile) and the id
 * strings they make again on every read cost more than the objects they spare the garbage collector.
 */
export class RecordObjects implements RecordFields {
  size = 0;
  private readonly records: StoredEntryRecord[] = [];

  get ids(): RecordObjects {
    return this;
  }

  /** Nothing to reserve: the array grows as needed. */
  grow(_capacity: number): void {}

  set(i: number, record: StoredEntryRecord): void {
    this.records[i] = record;
  }

  idOf(i: number): string | undefined {
    return i < this.size ? this.records[i]?.id : undefined;
  }

  hasId(i: number, id: string): boolean {
    return i < this.size && this.records[i]?.id === id;
  }

  sameId(a: number, b: number): boolean {
    const id = this.records[a]?.id;
    return id !== undefined && id === this.records[b]?.id;
  }

  isChain(parentId: string, i: number): boolean {
    const previous = this.records[i - 1];
    return previous !== undefined && previous.id === parentId && previous.type !== "session";
  }

  typeOf(i: number): string | undefined {
    return this.records[i]?.type;
  }

  roleOf(i: number): string | undefined {
    return this.records[i]?.role;
  }

  truncate(count: number): void {
    if (count < this.records.length) this.records.length = count;
    this.size = Math.min(this.size, count);
  }

  /** A copy of the array of the first `n` records (the objects are shared: nobody changes them). */
  loaded(n: number): StoredEntryRecord[] {
    return this.records.slice(0, n);
  }
}
