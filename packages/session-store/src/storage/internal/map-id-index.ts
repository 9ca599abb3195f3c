import { IdIndex, type IdIndexState } from "./id-index";
import type { RecordIds } from "./record-ids";

/**
 * The {@link IdIndex} of a small session: the same lookups (the last record with an id wins,
 * `type: "session"` records are not indexed, repeats are counted) over a `Map`, whose string hashing
 * is V8's own. A small file's open then runs no per-id hash loop in JavaScript: at 1k entries that
 * loop was hot enough for V8 to compile it with its optimizing compiler during the open (about
 * 10 ms of compile CPU and 170 page faults against an open of some 50 ms), for a thousand calls.
 * The hashes a sidecar index stores are computed only when one is written ({@link MapIdIndex.state}).
 */
export class MapIdIndex {
  /** Whether an id was seen twice. */
  duplicates = false;
  /** How many inserts met an id already held (as `IdIndex.repeats`). */
  repeats = 0;
  private readonly byId = new Map<string, number>();

  /**
   * @param ids - the table's ids.
   * @param skip - names the records never indexed although they have an id (`type: "session"` lines).
   */
  constructor(
    private readonly ids: RecordIds,
    private readonly skip: (index: number) => boolean,
  ) {}

  /** An index of every record of `ids` with an id, but those `skip` names. */
  static build(ids: RecordIds, skip: (index: number) => boolean): MapIdIndex {
    const index = new MapIdIndex(ids, skip);
    const skipped: number[] = [];
    for (let i = 0; i < ids.size; i++) if (ids.idOf(i) === undefined || skip(i)) skipped.push(i);
    index.insertMany(0, ids.size, undefined, skipped);
    return index;
  }

  /**
   * Indexes records `[from, to)` in order, like `IdIndex.insertMany` (call after the records before
   * `from`); `skip` lists, in ascending order, the records of the range that are never indexed.
   * Hashes are not used.
   */
  insertMany(from: number, to: number, _hashOf: Uint32Array | undefined, skip: readonly number[]): void {
    const { byId, ids } = this;
    let k = 0;
    for (let index = from; index < to; index++) {
      if (k < skip.length && skip[k] === index) {
        k++;
        continue;
      }
      const id = ids.idOf(index) as string;
      if (byId.has(id)) {
        this.duplicates = true;
        this.repeats++;
      }
      byId.set(id, index);
    }
  }

  /** Nothing to reserve: the map grows as needed. */
  reserve(_expected: number): void {}

  /** Index of the last record with this id, or -1. */
  find(id: string): number {
    return this.byId.get(id) ?? -1;
  }

  /** The state an {@link IdIndex} of the same records would save (for a sidecar index; computed now). */
  state(): IdIndexState {
    return IdIndex.build(this.ids, this.skip).state();
  }
}
