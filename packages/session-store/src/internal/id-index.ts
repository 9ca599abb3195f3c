/**
 * Entry id → entry index, for sessions of a million entries: an open-addressing hash table in one
 * `Int32Array` (no per-entry objects, so building it creates no garbage), keyed by the id string.
 * Entry ids are usually 8 hex characters, hashed by their value; other ids by FNV-1a. A slot holds
 * `index + 1` (0 = empty) and, beside it, the id's hash: probing reads an id back through `idAt` only
 * when the hashes match, and growing never rehashes.
 *
 * Setting an id again replaces its index (later entries win, as when loading a file).
 */
export class IdIndex {
  private slots: Int32Array;
  private hashes: Uint32Array;
  private mask: number;
  private count = 0;

  constructor(
    private readonly idAt: (index: number) => string | undefined,
    expected = 0,
  ) {
    let capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    this.slots = new Int32Array(capacity);
    this.hashes = new Uint32Array(capacity);
    this.mask = capacity - 1;
  }

  /** Number of distinct ids. */
  get size(): number {
    return this.count;
  }

  /** The index stored for `id`, or `undefined`. */
  get(id: string): number | undefined {
    const slot = this.find(id, hashId(id));
    const value = this.slots[slot] as number;
    return value === 0 ? undefined : value - 1;
  }

  /** True when `id` is stored. */
  has(id: string): boolean {
    return (this.slots[this.find(id, hashId(id))] as number) !== 0;
  }

  /** Stores `index` for `id` (replacing an earlier index for the same id). */
  set(id: string, index: number): void {
    if ((this.count + 1) * 2 > this.slots.length) this.grow();
    const hash = hashId(id);
    const slot = this.find(id, hash);
    if ((this.slots[slot] as number) === 0) this.count++;
    this.slots[slot] = index + 1;
    this.hashes[slot] = hash;
  }

  /** Makes room for `total` ids without further growth. */
  reserve(total: number): void {
    while (total * 2 > this.slots.length) this.grow();
  }

  /** Stores `index` for `id` unless the id is already stored. */
  setIfAbsent(id: string, index: number): void {
    if ((this.count + 1) * 2 > this.slots.length) this.grow();
    const hash = hashId(id);
    const slot = this.find(id, hash);
    if ((this.slots[slot] as number) !== 0) return;
    this.count++;
    this.slots[slot] = index + 1;
    this.hashes[slot] = hash;
  }

  /** The slot holding `id`, or the empty slot where it would go. */
  private find(id: string, hash: number): number {
    let slot = hash & this.mask;
    for (;;) {
      const value = this.slots[slot] as number;
      if (value === 0 || ((this.hashes[slot] as number) === hash && this.idAt(value - 1) === id)) return slot;
      slot = (slot + 1) & this.mask;
    }
  }

  private grow(): void {
    const oldSlots = this.slots;
    const oldHashes = this.hashes;
    this.slots = new Int32Array(oldSlots.length * 2);
    this.hashes = new Uint32Array(oldSlots.length * 2);
    this.mask = this.slots.length - 1;
    for (let old = 0; old < oldSlots.length; old++) {
      const value = oldSlots[old] as number;
      if (value === 0) continue;
      const hash = oldHashes[old] as number;
      let slot = hash & this.mask;
      while ((this.slots[slot] as number) !== 0) slot = (slot + 1) & this.mask;
      this.slots[slot] = value;
      this.hashes[slot] = hash;
    }
  }
}

/** A well-mixed 32-bit hash: the value of an 8-hex-character id, else FNV-1a of the UTF-16 units. */
function hashId(id: string): number {
  let hash = 0;
  if (id.length === 8) {
    for (let position = 0; position < 8; position++) {
      const code = id.charCodeAt(position);
      const digit = code >= 48 && code <= 57 ? code - 48 : code >= 97 && code <= 102 ? code - 87 : -1;
      if (digit < 0) return mix(fnv1a(id));
      hash = ((hash << 4) | digit) >>> 0;
    }
    return mix(hash);
  }
  return mix(fnv1a(id));
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let position = 0; position < text.length; position++) {
    hash ^= text.charCodeAt(position);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Spreads the bits (murmur3's finalizer), so sequential or similar ids do not cluster. */
function mix(value: number): number {
  let hash = value;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}
