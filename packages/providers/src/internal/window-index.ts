/** A half-open span `[start, end)` of a text. */
export interface Range {
  start: number;
  end: number;
}

/** Odd multiplier of the rolling hash (arithmetic modulo 2^32). */
const BASE = 0x01000193;

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
    let open: Range | undefined;
    let hash = hashOf(text, 0, length);
    for (let i = 0; ; i++) {
      const bucket = this.#byHash.get(hash);
      if (bucket?.some((window) => text.startsWith(window, i))) {
        if (open !== undefined && i <= open.end) open.end = i + length;
        else {
          open = { start: i, end: i + length };
          runs.push(open);
        }
      }
      if (i + length >= text.length) return runs;
      const leaving = Math.imul(text.charCodeAt(i), this.#topPower);
      hash = (Math.imul(hash - leaving, BASE) + text.charCodeAt(i + length)) | 0;
    }
  }
}
