const OTHER = 9;

/**
 * The ids of a table's records without a string per record: an id of at most 8 ASCII characters
 * (pi and Arbor write 8 hex digits) is kept as its bytes in two 32-bit words, any other id as a string
 * in a side map. A string is made when an id is asked for ({@link PackedIds.idOf}); comparisons
 * ({@link PackedIds.hasId}, {@link PackedIds.sameId}) make none. At 100k entries the id strings were,
 * with the record objects, what the garbage collector copied during an open.
 */
export class PackedIds {
  /** Records held (set by the owner as it adds and drops records). */
  size = 0;
  private words: Uint32Array;
  /** Per record: 0 no id, 1-8 the length of an id kept in `words`, 9 an id kept in `others`. */
  private kinds: Uint8Array;
  private readonly others: Map<number, string>;

  constructor(capacity: number, words?: Uint32Array, kinds?: Uint8Array, others?: Map<number, string>) {
    this.words = words ?? new Uint32Array(capacity * 2);
    this.kinds = kinds ?? new Uint8Array(capacity);
    this.others = others ?? new Map();
  }

  /**
   * The ids of `n` records as a sidecar index holds them: one string of the ids joined by `"\n"`
   * (every record has an id without a newline), or a list with `null` for a record without one.
   * Makes no string for an id it packs.
   */
  static of(ids: string | readonly (string | null)[], n: number): PackedIds {
    const packed = new PackedIds(n);
    packed.size = n;
    if (typeof ids !== "string") {
      for (let i = 0; i < n; i++) packed.set(i, ids[i] ?? undefined);
      return packed;
    }
    const { words, kinds } = packed;
    let from = 0;
    for (let i = 0; i < n; i++) {
      let end = ids.indexOf("\n", from);
      if (end < 0) end = ids.length;
      const length = end - from;
      let lo = 0;
      let hi = 0;
      let plain = length <= 8;
      for (let k = 0; k < length && plain; k++) {
        const c = ids.charCodeAt(from + k);
        if (c > 0x7f) plain = false;
        else if (k < 4) lo |= c << (k * 8);
        else hi |= c << ((k - 4) * 8);
      }
      // An empty id is kept as a string: kind 0 means no id.
      if (plain && length > 0) {
        words[i * 2] = lo;
        words[i * 2 + 1] = hi;
        kinds[i] = length;
      } else packed.set(i, ids.slice(from, end));
      from = end + 1;
    }
    return packed;
  }

  /** Keeps room for `capacity` records. */
  grow(capacity: number): void {
    if (capacity <= this.kinds.length) return;
    const words = new Uint32Array(capacity * 2);
    words.set(this.words);
    const kinds = new Uint8Array(capacity);
    kinds.set(this.kinds);
    this.words = words;
    this.kinds = kinds;
  }

  /** Sets the id of record `i` (`undefined`: none). */
  set(i: number, id: string | undefined): void {
    this.others.delete(i);
    if (id === undefined) {
      this.kinds[i] = 0;
      return;
    }
    let lo = 0;
    let hi = 0;
    const n = id.length;
    for (let k = 0; k < n && n <= 8; k++) {
      const c = id.charCodeAt(k);
      if (c > 0x7f) break;
      if (k < 4) lo |= c << (k * 8);
      else hi |= c << ((k - 4) * 8);
      if (k === n - 1) {
        this.words[i * 2] = lo;
        this.words[i * 2 + 1] = hi;
        this.kinds[i] = n;
        return;
      }
    }
    this.kinds[i] = OTHER;
    this.others.set(i, id);
  }

  /** Sets the id of record `i` from plain ASCII bytes `buf[start, end)` (what the load scan found). */
  setBytes(i: number, buf: Uint8Array, start: number, end: number): void {
    const n = end - start;
    if (n === 8) {
      this.words[i * 2] =
        (buf[start] as number) |
        ((buf[start + 1] as number) << 8) |
        ((buf[start + 2] as number) << 16) |
        ((buf[start + 3] as number) << 24);
      this.words[i * 2 + 1] =
        (buf[start + 4] as number) |
        ((buf[start + 5] as number) << 8) |
        ((buf[start + 6] as number) << 16) |
        ((buf[start + 7] as number) << 24);
      this.kinds[i] = 8;
      return;
    }
    let id = "";
    for (let k = start; k < end; k++) id += String.fromCharCode(buf[k] as number);
    this.set(i, id);
  }

  /**
   * Copies the bytes of record `i`'s id into `out` at `at` when the id is packed (1 to 8 ASCII
   * characters) and returns how many; returns 0, copying nothing, for an id kept as a string, a
   * record without an id, or `i` not held. `out` must have room for 8 bytes at `at`.
   */
  copyIdBytes(i: number, out: Uint8Array, at: number): number {
    const kind = this.kinds[i] as number;
    if (kind === 0 || kind === OTHER || i >= this.size) return 0;
    const lo = this.words[i * 2] as number;
    const hi = this.words[i * 2 + 1] as number;
    if (kind === 8) {
      // What pi and Arbor write, made without a loop: one call per id of a long path.
      out[at] = lo;
      out[at + 1] = lo >>> 8;
      out[at + 2] = lo >>> 16;
      out[at + 3] = lo >>> 24;
      out[at + 4] = hi;
      out[at + 5] = hi >>> 8;
      out[at + 6] = hi >>> 16;
      out[at + 7] = hi >>> 24;
      return 8;
    }
    for (let k = 0; k < kind; k++) out[at + k] = k < 4 ? lo >>> (k * 8) : hi >>> ((k - 4) * 8);
    return kind;
  }

  /** The id of record `i` (a new string for a packed id), `undefined` when it has none. */
  idOf(i: number): string | undefined {
    const kind = this.kinds[i] as number;
    if (kind === 0 || i >= this.size) return undefined;
    if (kind === OTHER) return this.others.get(i);
    const lo = this.words[i * 2] as number;
    const hi = this.words[i * 2 + 1] as number;
    if (kind === 8) {
      return String.fromCharCode(
        lo & 0xff,
        (lo >>> 8) & 0xff,
        (lo >>> 16) & 0xff,
        lo >>> 24,
        hi & 0xff,
        (hi >>> 8) & 0xff,
        (hi >>> 16) & 0xff,
        hi >>> 24,
      );
    }
    let id = "";
    for (let k = 0; k < kind; k++) id += String.fromCharCode(((k < 4 ? lo : hi) >>> ((k % 4) * 8)) & 0xff);
    return id;
  }

  /** True when record `i` has the id `id` (makes no string). */
  hasId(i: number, id: string): boolean {
    const kind = this.kinds[i] as number;
    if (kind === 0 || i >= this.size) return false;
    if (kind === OTHER) return this.others.get(i) === id;
    if (id.length !== kind) return false;
    const lo = this.words[i * 2] as number;
    const hi = this.words[i * 2 + 1] as number;
    for (let k = 0; k < kind; k++) {
      if (id.charCodeAt(k) !== (((k < 4 ? lo : hi) >>> ((k % 4) * 8)) & 0xff)) return false;
    }
    return true;
  }

  /** True when record `i` has an id (makes no string). */
  has(i: number): boolean {
    return i < this.size && this.kinds[i] !== 0;
  }

  /** True when record `i` has an id other than `""` (makes no string). */
  hasNonEmptyId(i: number): boolean {
    const kind = this.kinds[i] as number;
    return i < this.size && kind !== 0 && (kind !== OTHER || this.others.get(i) !== "");
  }

  /** True when records `a` and `b` both have an id and it is the same. */
  sameId(a: number, b: number): boolean {
    const kind = this.kinds[a] as number;
    if (kind === 0 || kind !== this.kinds[b]) return false;
    if (kind === OTHER) return this.others.get(a) === this.others.get(b);
    return this.words[a * 2] === this.words[b * 2] && this.words[a * 2 + 1] === this.words[b * 2 + 1];
  }

  /** Drops the ids of records from `count` on. */
  truncate(count: number): void {
    for (const i of [...this.others.keys()]) if (i >= count) this.others.delete(i);
    this.kinds.fill(0, count);
    this.size = Math.min(this.size, count);
  }

  /** A copy of the first `n` ids, unaffected by later changes. */
  snapshot(n: number): PackedIds {
    const others = new Map<number, string>();
    for (const [i, id] of this.others) if (i < n) others.set(i, id);
    const copy = new PackedIds(0, this.words.slice(0, n * 2), this.kinds.slice(0, n), others);
    copy.size = n;
    return copy;
  }
}
