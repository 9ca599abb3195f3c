/** A half-open span `[start, end)` of a text. */
export interface Range {
  start: number;
  end: number;
}

/** Odd multiplier of the rolling hash (arithmetic modulo 2^32). */
const BASE = 0x01000193;
/** Bits of the hash that index the prefilter (2^16 bits: 8 KB). */
const FILTER_BITS = 16;
const FILTER_MASK = (1 << FILTER_BITS) - 1;

function hashOf(text: string, from: number, length: number): number {
  let hash = 0;
  for (let i = from; i < from + length; i++) hash = (Math.imul(hash, BASE) + text.charCodeAt(i)) | 0;
  return hash;
}

/**
 * Every window of a fixed length of some secrets, indexed by a rolling hash, so that a text can be
 * searched for any of them in one pass: time linear in the text (a hash hit is confirmed by
 * comparing the window itself), independent of the number and length of the secrets.
 */
export class WindowIndex {
  readonly #length: number;
  /** BASE^(length-1) modulo 2^32: the weight of the character leaving the window. */
  readonly #topPower: number;
  readonly #byHash = new Map<number, string[]>();
  /** One bit per value of the hash's low bits: most positions of a text are ruled out by it alone. */
  readonly #filter = new Uint32Array((FILTER_MASK + 1) >>> 5);

  constructor(length: number) {
    this.#length = length;
    let power = 1;
    for (let i = 1; i < length; i++) power = Math.imul(power, BASE);
    this.#topPower = power;
  }

  /** Adds every window of `secret` (none when it is shorter than the window). */
  addAll(secret: string): void {
    for (let i = 0; i + this.#length <= secret.length; i++) {
      const window = secret.slice(i, i + this.#length);
      const hash = hashOf(window, 0, this.#length);
      const bucket = this.#byHash.get(hash);
      const bit = hash & FILTER_MASK;
      this.#filter[bit >>> 5] = (this.#filter[bit >>> 5] as number) | (1 << (bit & 31));
      if (bucket === undefined) this.#byHash.set(hash, [window]);
      else if (!bucket.includes(window)) bucket.push(window);
    }
  }

  /**
   * The maximal spans of `text` covered by indexed windows, in order and disjoint (overlapping and
   * touching windows are merged): each is a run of at least `length` characters of some secret.
   */
  findRuns(text: string): Range[] {
    const length = this.#length;
    const runs: Range[] = [];
    if (this.#byHash.size === 0 || text.length < length) return runs;
    const filter = this.#filter;
    const topPower = this.#topPower;
    const last = text.length - length;
    let open: Range | undefined;
    let hash = hashOf(text, 0, length);
    for (let i = 0; ; i++) {
      const bit = hash & FILTER_MASK;
      if (((filter[bit >>> 5] as number) & (1 << (bit & 31))) !== 0 && this.#matchesAt(text, i, hash)) {
        if (open !== undefined && i <= open.end) open.end = i + length;
        else {
          open = { start: i, end: i + length };
          runs.push(open);
        }
      }
      if (i === last) return runs;
      const leaving = Math.imul(text.charCodeAt(i), topPower);
      hash = (Math.imul(hash - leaving, BASE) + text.charCodeAt(i + length)) | 0;
    }
  }

  #matchesAt(text: string, at: number, hash: number): boolean {
    const bucket = this.#byHash.get(hash);
    if (bucket === undefined) return false;
    for (const window of bucket) if (text.startsWith(window, at)) return true;
    return false;
  }
}
