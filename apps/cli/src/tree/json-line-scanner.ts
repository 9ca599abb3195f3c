import { jsonFlattenProgram } from "./json-flatten-program";
import { jsonScanFlags } from "./json-scan-flags";
import { jsonScanMemory } from "./json-scan-memory";
import { jsonScanWasm } from "./json-scan-wasm";

/** Where the line is copied in the scanner's memory (see `jsonScanMemory`). */
const LINE_AT = jsonScanMemory.lineAt;
const FLAGS = jsonScanFlags.escaped | jsonScanFlags.wide;
/** Where {@link JsonLineScanner.flatten} leaves its text and (as i32 words) its state. */
const FLAT_STATE_AT = jsonFlattenProgram.stateAt;

/** Lines longer than this are left to `JSON.parse` (result `"large"`): the scan needs 5 bytes per byte. */
const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** What {@link JsonLineScanner.scan} found. */
export type JsonLineScan = "valid" | "invalid" | "deep" | "large";

let compiled: WebAssembly.Module | undefined;

/**
 * Checks that a line is well-formed JSON exactly as `JSON.parse` of its UTF-8 text would (one value,
 * JSON whitespace around it; strings without raw control characters and with valid escapes; numbers,
 * literals, nesting as in RFC 8259), and records where each value ends, so that a reader can then
 * skip any value in one step. The check runs as a small WebAssembly function (`jsonScanProgram`, kept
 * assembled in `jsonScanWasm`), which reads string contents 16 bytes at a time.
 *
 * Bytes that are not valid UTF-8 are accepted, as `JSON.parse` accepts their decoding (U+FFFD). A
 * line nested deeper than 4,096 levels gives `"deep"` and one above 16 MiB `"large"`: neither is
 * checked, leave them to `JSON.parse`. Not reentrant; positions are valid until the next `scan`.
 */
export class JsonLineScanner {
  private readonly instance: WebAssembly.Instance;
  private readonly memory: WebAssembly.Memory;
  private readonly run: (start: number, end: number, ends: number) => number;
  private readonly runFlatten: (
    from: number,
    to: number,
    width: number,
    length: number,
    space: number,
    out: number,
  ) => number;
  private readonly runFields: (at: number, table: number, count: number, out: number, ends: number) => number;
  /** Where the next key table goes (see {@link JsonLineScanner.keyTable}). */
  private nextTable: number = jsonScanMemory.keyTables;
  /** The scanner's memory as bytes (the line is at {@link JsonLineScanner.start}). */
  bytes: Buffer;
  /** The scanner's memory as 32-bit words (the ends table, the key tables, a flatten's state). */
  private words: Int32Array;
  private endsAt = 0;
  /** The ends table's word for position `at` is `words[endsBase + at]` (after a scan). */
  private endsBase = 0;
  /** Where the scanned line starts in {@link JsonLineScanner.bytes}. */
  readonly start = LINE_AT;
  /** Where the scanned line ends (exclusive) in {@link JsonLineScanner.bytes}. */
  end: number = LINE_AT;

  constructor() {
    compiled ??= new WebAssembly.Module(Buffer.from(jsonScanWasm, "base64"));
    this.instance = new WebAssembly.Instance(compiled);
    const exports = this.instance.exports as {
      scan: JsonLineScanner["run"];
      flatten: JsonLineScanner["runFlatten"];
      fields: JsonLineScanner["runFields"];
      memory: WebAssembly.Memory;
    };
    this.memory = exports.memory;
    this.run = exports.scan;
    this.runFlatten = exports.flatten;
    this.runFields = exports.fields;
    this.bytes = Buffer.from(this.memory.buffer);
    this.words = new Int32Array(this.memory.buffer);
  }

  /** Copies `line` into the scanner and checks it (see the class). */
  scan(line: Uint8Array): JsonLineScan {
    const length = line.length;
    if (length > MAX_LINE_BYTES) return "large";
    const endsAt = (LINE_AT + length + 16 + 3) & ~3;
    const needed = endsAt + 4 * (length + 1);
    if (needed > this.memory.buffer.byteLength) {
      this.memory.grow(Math.ceil((needed - this.memory.buffer.byteLength) / 65536));
      this.bytes = Buffer.from(this.memory.buffer);
      this.words = new Int32Array(this.memory.buffer);
    }
    const bytes = this.bytes;
    bytes.set(line, LINE_AT);
    // The program reads 16 bytes at a time: zeros after the line (a loop: cheaper than `fill`'s call).
    for (let at = LINE_AT + length, end = at + 16; at < end; at++) bytes[at] = 0;
    this.end = LINE_AT + length;
    this.endsAt = endsAt >> 2;
    this.endsBase = this.endsAt - LINE_AT;
    const result = this.run(LINE_AT, LINE_AT + length, endsAt);
    return result === 1 ? "valid" : result === 2 ? "deep" : "invalid";
  }

  /**
   * Where the value (or object key) starting at `at` ends (exclusive), after a `"valid"` scan. `at`
   * must be the first byte of a value or key of the scanned line.
   */
  endOf(at: number): number {
    return (this.words[this.endsAt + at - LINE_AT] as number) & ~FLAGS;
  }

  /** Whether the string starting at `at` has an escape (after a `"valid"` scan). */
  isEscaped(at: number): boolean {
    return ((this.words[this.endsAt + at - LINE_AT] as number) & jsonScanFlags.escaped) !== 0;
  }

  /**
   * Whether the string starting at `at` may have bytes above 0x7f (after a `"valid"` scan); `false`:
   * it is ASCII.
   */
  isWide(at: number): boolean {
    return ((this.words[this.endsAt + at - LINE_AT] as number) & jsonScanFlags.wide) !== 0;
  }

  /** After a {@link JsonLineScanner.flatten}: the text's UTF-16 code units. */
  flatLength = 0;
  /** After a {@link JsonLineScanner.flatten}: whether a space is due before the next character. */
  flatSpace = false;
  /** After a {@link JsonLineScanner.flatten}: whether it wrote a byte above 0x7f. */
  flatWide = false;

  /**
   * Flattens the contents `[from, to)` of a JSON string of the scanned line (its position after the
   * opening quote to that of the closing one; after a `"valid"` scan) as `FlatClip` does: appends to a
   * text of `length` code units so far (`space`: whitespace came after it) whose UTF-8 bytes end at
   * `out` in {@link JsonLineScanner.bytes} (within one of `jsonFlattenProgram.regions`), each
   * whitespace run collapsed to one space, stopping once the text holds more than `width` code units.
   * Returns where the text's bytes end now and sets `flatLength`, `flatSpace` and `flatWide`; -1 when
   * the string needs the slow way (a control character, an escaped surrogate, bytes that are not
   * UTF-8, or a width above `jsonFlattenProgram.maxWidth`).
   */
  flatten(from: number, to: number, width: number, length: number, space: boolean, out: number): number {
    if (this.runFlatten(from, to, width, length, space ? 1 : 0, out) === 0) return -1;
    const words = this.words;
    const state = FLAT_STATE_AT >> 2;
    this.flatLength = words[state + 1] as number;
    this.flatSpace = words[state + 2] === 1;
    this.flatWide = words[state + 3] === 1;
    return words[state] as number;
  }

  /**
   * Writes `names` into the scanner's memory as a key table for {@link JsonLineScanner.fields} and
   * returns where it is. Each name: ASCII without quotes or backslashes, 1 to 12 bytes; at most 8
   * names; the tables of one scanner hold 250 names in all. Throws otherwise.
   */
  keyTable(names: readonly string[]): number {
    const { keyBytes, maxKeys, keyTablesEnd } = jsonScanMemory;
    const at = this.nextTable;
    if (names.length > maxKeys || at + names.length * keyBytes > keyTablesEnd)
      throw new Error(`no room for the key table ${JSON.stringify(names)}`);
    for (const [index, name] of names.entries()) {
      if (!/^[\x20\x21\x23-\x5b\x5d-\x7e]{1,12}$/.test(name))
        throw new Error(`unsupported key ${JSON.stringify(name)}`);
      const entry = at + index * keyBytes;
      this.words[entry >> 2] = name.length;
      this.bytes.write(name, entry + 4, "latin1");
    }
    this.nextTable = at + names.length * keyBytes;
    return at;
  }

  /**
   * Looks up the `count` keys of the key table at `table` (see {@link JsonLineScanner.keyTable}) in the
   * object at `at` of the scanned line (after a `"valid"` scan): fills `found` with each key's value
   * position, -1 for an absent key, and returns true; false when `at` is no object, a key has an
   * escape, or a key of the table occurs twice. See `jsonFieldsProgram`.
   */
  fields(at: number, table: number, found: number[]): boolean {
    const out = jsonScanMemory.fieldsOut;
    if (this.runFields(at, table, found.length, out, this.endsBase << 2) === 0) return false;
    const words = this.words;
    for (let index = 0, word = out >> 2; index < found.length; index++)
      found[index] = words[word + index] as number;
    return true;
  }
}
