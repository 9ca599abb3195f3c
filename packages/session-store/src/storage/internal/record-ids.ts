/**
 * The ids of a table's records as an id index reads them (`IdIndex`, `MapIdIndex`): kept packed
 * (`PackedIds`) or in the records themselves (`RecordObjects`).
 */
export interface RecordIds {
  /** Records held. */
  readonly size: number;
  /** The id of record `i`, `undefined` when it has none or `i` is not held. */
  idOf(i: number): string | undefined;
  /** True when record `i` has the id `id`. */
  hasId(i: number, id: string): boolean;
  /** True when records `a` and `b` both have an id and it is the same. */
  sameId(a: number, b: number): boolean;
}
