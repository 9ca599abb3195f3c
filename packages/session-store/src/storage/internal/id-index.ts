import type { RecordIds } from "./record-ids";

/**
 * id -> record index, as an open-addressing hash table in typed arrays: no per-entry objects, so a
 * million ids cost ~12 MB and no GC work (a `Map<string, number>` costs several times that). Like pi's
 * `byId` map, the last record with a given id wins, and `type: "session"` records are not indexed.
 */
export class IdIndex {
  /** Whether an id was seen twice (then earlier parent resolutions may point at a stale duplicate). */
  duplicates = false;
  /** How many inserts met an id already held (grows with every repeat; not saved). */
  repeats = 0;
  private slots: Int32Array; // record index + 1; 0 = empty
  private hashes: Uint32Array; // per record index
  private mask: number;
  private count = 0;

  constructor(
    private readonly ids: RecordIds,
    expected = 1024,
  ) {
    let size = 1024;
    while (size < expected * 2 && size < 1 << 30) size *= 2;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    this.hashes = new Uint32Array(Math.max(expected, 1024));
  }

  /** An index of every record but those `skip` names (the `type: "session"` lines). */
  static build(ids: RecordIds, skip: (index: number) => boolean): IdIndex {
    const index = new IdIndex(ids, ids.size);
    for (let i = 0; i < ids.size; i++) if (!skip(i)) index.insert(i);
    return index;
  }

  /**
   * An index from a saved {@link IdIndexState} (sidecar index); `ids` must be the same records' ids.
   * `owned`: the state's arrays are the index's own from now on (no copy; it writes into them).
   */
  static restore(ids: RecordIds, state: IdIndexState, owned = false): IdIndex {
    const index = new IdIndex(ids, 0);
    index.slots = owned ? state.slots : state.slots.slice();
    index.mask = state.slots.length - 1;
    if (owned) index.hashes = state.hashes;
    else {
      index.hashes = new Uint32Array(Math.max(1024, ids.size * 2));
      index.hashes.set(state.hashes);
    }
    index.count = state.count;
    index.duplicates = state.duplicates;
    return index;
  }

  /** The table's state, to save it (views: copy before the index changes). */
  state(): IdIndexState {
    return {
      slots: this.slots,
      hashes: this.hashes.subarray(0, this.ids.size),
      count: this.count,
      duplicates: this.duplicates,
    };
  }

  /** FNV-1a over UTF-16 code units. */
  static hash(id: string): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < id.length; i++) {
      h ^= id.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    return h >>> 0;
  }

  /**
   * Indexes record `index` (call in index order; never for a `type: "session"` line). `h` must be
   * `IdIndex.hash` of its id, when given (a scan computes it from the id's bytes).
   */
  insert(index: number, h?: number): void {
    const id = this.ids.idOf(index);
    if (id === undefined) return;
    if (h === undefined) h = IdIndex.hash(id);
    if (index >= this.hashes.length) {
      const grown = new Uint32Array(Math.max(this.hashes.length * 2, index + 1));
      grown.set(this.hashes);
      this.hashes = grown;
    }
    this.hashes[index] = h;
    let slot = h & this.mask;
    for (;;) {
      const held = this.slots[slot] as number;
      if (held === 0) break;
      const other = held - 1;
      if (this.hashes[other] === h && this.ids.sameId(other, index)) {
        this.slots[slot] = index + 1; // the later entry wins, as in pi
        this.duplicates = true;
        this.repeats++;
        return;
      }
      slot = (slot + 1) & this.mask;
    }
    this.slots[slot] = index + 1;
    if (++this.count * 2 > this.slots.length) this.rehash(this.slots.length * 2);
  }

  /**
   * Indexes records `[from, to)` at once, like {@link IdIndex.insert} on each in order (call after the
   * records before `from`). `hashOf[i]` must be `IdIndex.hash` of record i's id; `skip` lists, in
   * ascending order, the records of the range that are never indexed (no id, or a `type: "session"`
   * line). A record is read only when its hash meets an equal one (a repeated id or a collision), so
   * a batch after a scan walks typed arrays, not a million ids.
   */
  insertMany(from: number, to: number, hashOf: Uint32Array, skip: readonly number[]): void {
    this.reserve(this.count + (to - from));
    if (to > this.hashes.length) {
      const grown = new Uint32Array(Math.max(this.hashes.length * 2, to));
      grown.set(this.hashes);
      this.hashes = grown;
    }
    const { slots, hashes, mask, ids } = this;
    let k = 0;
    let added = 0;
    next: for (let index = from; index < to; index++) {
      if (k < skip.length && skip[k] === index) {
        k++;
        continue;
      }
      const h = hashOf[index] as number;
      hashes[index] = h;
      let slot = h & mask;
      for (;;) {
        const held = slots[slot] as number;
        if (held === 0) break;
        const other = held - 1;
        if (hashes[other] === h && ids.sameId(other, index)) {
          slots[slot] = index + 1; // the later entry wins, as in pi
          this.duplicates = true;
          this.repeats++;
          continue next;
        }
        slot = (slot + 1) & mask;
      }
      slots[slot] = index + 1;
      added++;
    }
    this.count += added;
  }

  /** Makes room for about `expected` ids without further rehashing. */
  reserve(expected: number): void {
    let size = this.slots.length;
    while (size < expected * 2 && size < 1 << 30) size *= 2;
    if (size > this.slots.length) this.rehash(size);
    if (expected > this.hashes.length) {
      // Geometric growth: an append reserves one more id each time, and an exact fit would copy the
      // whole array on every append.
      const grown = new Uint32Array(Math.max(expected, this.hashes.length * 2));
      grown.set(this.hashes);
      this.hashes = grown;
    }
  }

  /** Index of the last record with this id, or -1. */
  find(id: string): number {
    const h = IdIndex.hash(id);
    let slot = h & this.mask;
    for (;;) {
      const held = this.slots[slot] as number;
      if (held === 0) return -1;
      const other = held - 1;
      if (this.hashes[other] === h && this.ids.hasId(other, id)) return other;
      slot = (slot + 1) & this.mask;
    }
  }

  private rehash(size: number): void {
    const old = this.slots;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    for (let i = 0; i < old.length; i++) {
      const held = old[i] as number;
      if (held === 0) continue;
      let slot = (this.hashes[held - 1] as number) & this.mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = held;
    }
  }
}

/** Saved state of an {@link IdIndex}. */
export interface IdIndexState {
  /** Hash slots (record index + 1, 0 = empty); length is a power of two. */
  slots: Int32Array;
  /** Hash of each record's id (0 for records without an id). */
  hashes: Uint32Array;
  /** Ids held. */
  count: number;
  /** Whether an id was seen twice. */
  duplicates: boolean;
}
