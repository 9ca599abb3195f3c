const OVERFLOW = 0xffff;

/**
 * A column of strings with few distinct values (entry types, message roles): a 16-bit code per
 * record, so that a table of a million records holds no array of a million pointers (which grew, and
 * was copied, as a scan pushed into it). Code 0 is `undefined`; past 65,534 distinct values the rest
 * are kept per record in a side map.
 */
export class CodedStrings {
  private codes: Uint16Array;
  private readonly values: (string | undefined)[];
  private readonly codeOf: Map<string, number>;
  private readonly overflow: Map<number, string>;
  /** The value last set and its code (a scan sets the same few values over and over). */
  private lastValue: string | undefined;
  private lastCode = 0;

  constructor(
    capacity: number,
    from?: { codes: Uint16Array; values: (string | undefined)[]; overflow: Map<number, string> },
  ) {
    this.codes = from?.codes ?? new Uint16Array(capacity);
    this.values = from?.values ?? [undefined];
    this.overflow = from?.overflow ?? new Map();
    this.codeOf = new Map();
    for (let code = 1; code < this.values.length; code++) this.codeOf.set(this.values[code] as string, code);
  }

  /** Keeps room for `capacity` records. */
  grow(capacity: number): void {
    if (capacity <= this.codes.length) return;
    const codes = new Uint16Array(capacity);
    codes.set(this.codes);
    this.codes = codes;
  }

  set(i: number, value: string | undefined): void {
    if (value === this.lastValue) {
      this.codes[i] = this.lastCode;
      if (this.lastCode !== OVERFLOW) return;
    }
    let code = value === undefined ? 0 : this.codeOf.get(value);
    if (code === undefined) {
      code = this.values.length < OVERFLOW ? this.values.push(value) - 1 : OVERFLOW;
      if (code !== OVERFLOW) this.codeOf.set(value as string, code);
    }
    this.codes[i] = code;
    if (code === OVERFLOW) this.overflow.set(i, value as string);
    else this.overflow.delete(i);
    this.lastValue = value;
    this.lastCode = code;
  }

  get(i: number): string | undefined {
    const code = this.codes[i] as number;
    return code === OVERFLOW ? this.overflow.get(i) : this.values[code];
  }

  /**
   * Every value some record has, and perhaps values no record has any more (a value stays known after
   * its records are truncated or set again): a superset, made without reading each record's code.
   */
  knownValues(): string[] {
    const known = new Set<string>();
    for (let code = 1; code < this.values.length; code++) known.add(this.values[code] as string);
    for (const value of this.overflow.values()) known.add(value);
    return [...known];
  }

  /** Forgets the values of records from `count` on. */
  truncate(count: number): void {
    for (const i of [...this.overflow.keys()]) if (i >= count) this.overflow.delete(i);
    this.codes.fill(0, count);
  }

  /** A copy of the first `n` values, unaffected by later changes. */
  snapshot(n: number): CodedStrings {
    const overflow = new Map<number, string>();
    for (const [i, value] of this.overflow) if (i < n) overflow.set(i, value);
    return new CodedStrings(0, { codes: this.codes.slice(0, n), values: this.values.slice(), overflow });
  }
}
