import { JsonLineScanner } from "./json-line-scanner";

/** Node's `Buffer` decoders behind `toString` (not in its typings), which the reader calls directly. */
interface SliceDecoders {
  utf8Slice(start: number, end: number): string;
  latin1Slice(start: number, end: number): string;
}

/** Keys looked up by {@link JsonLineReader.fields} (made by {@link JsonLineReader.keys}). */
export interface JsonKeys {
  /** Where the keys' table is in the scanner's memory. */
  readonly table: number;
  /** The values found by the last lookup, one per key. */
  readonly values: number[];
}

/** Thrown by the reader's accessors when a value is not of the expected kind; callers fall back. */
const UNUSUAL = Symbol("unusual line");

/**
 * Reads chosen values from one JSON line without parsing all of it: the line is first checked to be
 * well-formed by a {@link JsonLineScanner} (which also records where each value ends), then objects
 * are walked key by key, skipping every value not asked for in one step, and strings are decoded
 * alone (see `FlatClip` for long texts). A position is a byte offset in {@link JsonLineReader.bytes}.
 *
 * Anything unusual (a key with an escape, a key asked for that occurs twice, a value of another kind
 * than asked) makes the accessors throw; {@link JsonLineReader.read} turns that into `undefined`, so
 * the caller reads the entry the full way. Not reentrant.
 */
export class JsonLineReader {
  /** The scanner the reader's line is in (for `FlatClip`, which flattens its strings there). */
  readonly scanner = new JsonLineScanner();

  /** The bytes the positions refer to (valid during a {@link JsonLineReader.read} callback). */
  get bytes(): Buffer {
    return this.scanner.bytes;
  }

  /**
   * Scans `line` and, when it is well-formed JSON, runs `use` with the position of its value.
   * Returns what `use` returns; `undefined` when the line is not well-formed (or too deep or large to
   * check here) or `use` met something unusual.
   */
  read<T>(line: Uint8Array, use: (at: number) => T): T | undefined {
    if (this.scanner.scan(line) !== "valid") return undefined;
    try {
      return use(this.skipSpace(this.scanner.start));
    } catch (error) {
      if (error === UNUSUAL) return undefined;
      throw error;
    }
  }

  /** First position at or after `at` that is not JSON whitespace. */
  skipSpace(at: number): number {
    const b = this.scanner.bytes;
    let c = b[at] as number;
    while (c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a) c = b[++at] as number;
    return at;
  }

  /** Where the value (or key) at `at` ends (exclusive): for a string, just after its closing quote. */
  endOf(at: number): number {
    return this.scanner.endOf(at);
  }

  /** The first byte of the value at `at`: `"`, `{`, `[`, `t`, `f`, `n`, or a number's. */
  kindOf(at: number): number {
    return this.scanner.bytes[at] as number;
  }

  /**
   * The keys `names` for {@link JsonLineReader.fields}: their table, written once into the scanner's
   * memory (see `JsonLineScanner.keyTable` for what names it takes), and the array each lookup fills.
   */
  keys(names: readonly string[]): JsonKeys {
    return { table: this.scanner.keyTable(names), values: names.map(() => -1) };
  }

  /**
   * The values of `keys`' names in the object at `at`, in their order (positions, -1 for an absent
   * key): `keys.values`, filled again by each call. Throws (unusual) when `at` is no object, a key has
   * an escape, or a key of the table occurs twice. The walk runs in the scanner's WebAssembly
   * (`JsonLineScanner.fields`).
   */
  fields(at: number, keys: JsonKeys): number[] {
    if (!this.scanner.fields(at, keys.table, keys.values)) throw UNUSUAL;
    return keys.values;
  }

  /** The positions of the array's items at `at`. Throws (unusual) when `at` is no array. */
  items(at: number): number[] {
    const b = this.scanner.bytes;
    if (b[at] !== 0x5b) throw UNUSUAL;
    const found: number[] = [];
    let item = this.skipSpace(at + 1);
    if (b[item] === 0x5d) return found;
    for (;;) {
      found.push(item);
      const next = this.skipSpace(this.scanner.endOf(item));
      if (b[next] === 0x5d) return found;
      item = this.skipSpace(next + 1);
    }
  }

  /**
   * True when the value at `at` is the string `expected` (ASCII, without backslashes). Throws
   * (unusual) for a string with an escape that is not `expected` as written: it might decode to it.
   */
  isString(at: number, expected: string): boolean {
    const b = this.scanner.bytes;
    if (b[at] !== 0x22) return false;
    const close = this.scanner.endOf(at) - 1;
    if (close === at + expected.length + 1) {
      let index = 0;
      while (index < expected.length && b[at + 1 + index] === expected.charCodeAt(index)) index++;
      if (index === expected.length) return true;
    }
    if (this.scanner.isEscaped(at)) throw UNUSUAL;
    return false;
  }

  /** The whole string at `at`. Throws (unusual) when the value is no string. */
  string(at: number): string {
    const b = this.scanner.bytes;
    if (b[at] !== 0x22) throw UNUSUAL;
    const close = this.scanner.endOf(at) - 1;
    // Buffer's own slice decoders: what `toString(encoding, start, end)` calls after checking them.
    const slices = b as unknown as SliceDecoders;
    const raw = this.scanner.isWide(at) ? slices.utf8Slice(at + 1, close) : slices.latin1Slice(at + 1, close);
    return this.scanner.isEscaped(at) ? JSON.parse(`"${raw}"`) : raw;
  }

  /** The JSON text of the value at `at`, parsed (for a small value read whole). */
  parse(at: number): unknown {
    return JSON.parse(this.scanner.bytes.toString("utf8", at, this.scanner.endOf(at)));
  }

  /** Throws the unusual-line signal (see the class). */
  unusual(): never {
    throw UNUSUAL;
  }
}
