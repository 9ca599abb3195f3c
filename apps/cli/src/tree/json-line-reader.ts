import { JsonLineScanner } from "./json-line-scanner";
import { jsonScanFlags } from "./json-scan-flags";

/** Both flags of an end word (see `JsonLineScanner.words`). */
const FLAGS = jsonScanFlags.escaped | jsonScanFlags.wide;

/** Node's `Buffer` decoders behind `toString` (not in its typings), which the reader calls directly. */
interface SliceDecoders {
  utf8Slice(start: number, end: number): string;
  latin1Slice(start: number, end: number): string;
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
   * Fills `found` with the values of `names` in the object at `at` (positions, -1 for an absent key)
   * and returns it. Throws (unusual) when `at` is no object, a key has an escape, or a key of `names`
   * occurs twice.
   */
  fields(at: number, names: readonly string[], found: number[]): number[] {
    const scanner = this.scanner;
    const b = scanner.bytes;
    const words = scanner.words;
    const base = scanner.endsBase;
    if (b[at] !== 0x7b) throw UNUSUAL;
    // A loop: `fill` is a call that costs more than the few stores.
    for (let index = 0; index < found.length; index++) found[index] = -1;
    let key = this.skipSpace(at + 1);
    if (b[key] === 0x7d) return found;
    for (;;) {
      const word = words[base + key] as number;
      // The escaped flag is the sign bit.
      if (word < 0) throw UNUSUAL;
      const keyEnd = word & ~jsonScanFlags.wide;
      const which = this.matchKey(key + 1, keyEnd - 1, names);
      let value = keyEnd;
      while (b[value] !== 0x3a) value++;
      value = this.skipSpace(value + 1);
      if (which >= 0) {
        if (found[which] !== -1) throw UNUSUAL;
        found[which] = value;
      }
      const next = this.skipSpace((words[base + value] as number) & ~FLAGS);
      if (b[next] === 0x7d) return found;
      key = this.skipSpace(next + 1);
    }
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

  /** Index in `names` of the key `[from, to)` (no escape in it); -1 for none. */
  private matchKey(from: number, to: number, names: readonly string[]): number {
    const b = this.scanner.bytes;
    const length = to - from;
    for (let which = 0; which < names.length; which++) {
      const name = names[which] as string;
      if (name.length !== length) continue;
      let at = 0;
      while (at < length && b[from + at] === name.charCodeAt(at)) at++;
      if (at === length) return which;
    }
    return -1;
  }

  /** Throws the unusual-line signal (see the class). */
  unusual(): never {
    throw UNUSUAL;
  }
}
