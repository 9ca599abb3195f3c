import { flatCharacterKind } from "../format/flat-character-kind";
import { clip } from "../format/message-preview";
import { jsonFlattenProgram } from "./json-flatten-program";
import type { JsonLineScanner } from "./json-line-scanner";

/** Node's `Buffer` coders behind `toString` and `write` (not in its typings), called directly. */
interface SliceDecoders {
  utf8Slice(start: number, end: number): string;
  latin1Slice(start: number, end: number): string;
}
interface Utf8Writer {
  utf8Write(text: string, offset: number): number;
}

/**
 * `clip(parts, width)` (see message-preview) made while the parts are given, as strings or straight
 * from the bytes of JSON strings, without decoding more than the result shows: each whitespace run
 * collapses to one space, the ends are trimmed, and once more than `width` characters are known the
 * result is decided ({@link FlatClip.full}): the caller may stop giving parts (what it gives then is
 * ignored). The result is always what `clip` gives for the concatenation of every part given.
 *
 * Plain text is flattened on the way (JSON strings by the scanner's WebAssembly, `JsonLineScanner.flatten`),
 * into UTF-8 bytes decoded once by {@link FlatClip.result}. A
 * control character (which `clip` removes with the sequence it starts), a surrogate (which the bytes
 * cannot hold alone) or bytes that are not valid UTF-8 make it {@link FlatClip.failed}: give the same parts again
 * after a reset with `whole`, which decodes every part whole and gives `clip` of them ({@link
 * FlatClip.full} then never true). Reusable: {@link FlatClip.reset} starts over.
 */
export class FlatClip {
  private width = 0;
  /** Where the text so far starts in the scanner's memory (its region, see the constructor). */
  private readonly at: number;
  /** The text so far as UTF-8: its bytes in the scanner's memory from `at`, decoded once by `result`. */
  private used = 0;
  /** The text may hold bytes above 0x7f (else it is ASCII: one byte per code unit). */
  private wide = false;
  /** UTF-16 code units in the text (those past `width + 1` are counted, not written). */
  private length = 0;
  /** Whitespace was given after the text (written as one space before the next text). */
  private space = false;
  /** With `whole`: the parts given, decoded. */
  private readonly parts: string[] = [];
  private whole = false;
  /** A part could not be flattened on the way (see the class). */
  failed = false;

  /**
   * `scanner`: the line {@link FlatClip.addJson} reads from (its last scan); the text is made in the
   * scanner's memory, in region `region` of `jsonFlattenProgram.regions` (two clips in use at once
   * need two regions).
   */
  constructor(
    private readonly scanner: JsonLineScanner,
    region: 0 | 1 = 0,
  ) {
    this.at = jsonFlattenProgram.regions[region];
  }

  /** Starts a new text, clipped to `width`; `whole`: decode the parts whole (after {@link FlatClip.failed}). */
  reset(width: number, whole = false): this {
    this.width = width;
    this.used = 0;
    this.wide = false;
    this.length = 0;
    this.space = false;
    // Only the whole way fills `parts`: setting an array's length is a runtime call, so skip it when empty.
    if (this.parts.length !== 0) this.parts.length = 0;
    this.whole = whole;
    // A text wider than the region holds is made the whole way.
    this.failed = !whole && width > jsonFlattenProgram.maxWidth;
    return this;
  }

  /** Whether the result is decided (more parts would not change it). */
  get full(): boolean {
    return this.length > this.width;
  }

  /** Gives a part as a string. */
  addString(text: string): void {
    if (this.whole) {
      this.parts.push(text);
      return;
    }
    if (this.failed || this.full) return;
    let copied = 0;
    let wide = false;
    for (let at = 0; at < text.length; at++) {
      const code = text.charCodeAt(at);
      if (code < 0x7f && code > 0x20) continue;
      // A surrogate (which the text, being UTF-8, cannot hold alone) is left to the whole way.
      if (code >= 0xd800 && code <= 0xdfff) {
        this.failed = true;
        return;
      }
      const kind = flatCharacterKind(code);
      if (kind === 0) {
        wide = true;
        continue;
      }
      if (kind === 2) {
        this.failed = true;
        return;
      }
      this.put(text, copied, at, wide);
      wide = false;
      this.space = true;
      copied = at + 1;
    }
    this.put(text, copied, text.length, wide);
  }

  /**
   * Gives a part as the contents `[from, to)` of a JSON string of the scanner's line (between its
   * quotes, `to` being the closing quote's position; the scan found the line well-formed).
   */
  addJson(from: number, to: number): void {
    if (this.whole) {
      this.parts.push(JSON.parse(this.scanner.bytes.toString("utf8", from - 1, to + 1)) as string);
      return;
    }
    if (this.failed || this.full) return;
    const scanner = this.scanner;
    const end = scanner.flatten(from, to, this.width, this.length, this.space, this.at + this.used);
    if (end < 0) {
      this.failed = true;
      return;
    }
    this.used = end - this.at;
    this.length = scanner.flatLength;
    this.space = scanner.flatSpace;
    if (scanner.flatWide) this.wide = true;
  }

  /** `clip` of the parts given. */
  result(): string {
    if (this.whole) return clip(this.parts, this.width);
    const { width, length, used, at } = this;
    const out = this.scanner.bytes as unknown as SliceDecoders;
    // ASCII: a code unit per byte, so the clipped text is decoded alone.
    if (!this.wide)
      return length <= width
        ? out.latin1Slice(at, at + used)
        : `${out.latin1Slice(at, at + Math.max(0, width - 1))}…`;
    const text = out.utf8Slice(at, at + used);
    return length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
  }

  /**
   * Appends `text[from, to)`, plain text (no whitespace, control or surrogate in it), after a space if
   * one is due; `wide`: not only ASCII. Only the units up to `width + 1` are written (the result shows
   * no more), so the text stays within its region; the rest are counted.
   */
  private put(text: string, from: number, to: number, wide: boolean): void {
    if (to === from) return;
    const bytes = this.scanner.bytes;
    if (this.space && this.length > 0) {
      bytes[this.at + this.used++] = 0x20;
      this.length++;
    }
    this.space = false;
    const shown = Math.min(to, from + Math.max(0, this.width + 1 - this.length));
    if (wide) {
      this.used += (bytes as unknown as Utf8Writer).utf8Write(text.slice(from, shown), this.at + this.used);
      this.wide = true;
    } else {
      let used = this.at + this.used;
      for (let at = from; at < shown; at++) bytes[used++] = text.charCodeAt(at);
      this.used = used - this.at;
    }
    this.length += to - from;
  }
}
