import { flatCharacterKind } from "../format/flat-character-kind";
import { clip } from "../format/message-preview";

/** Node's `Buffer` decoders behind `toString` (not in its typings), called directly. */
interface SliceDecoders {
  utf8Slice(start: number, end: number): string;
  latin1Slice(start: number, end: number): string;
}

/** A hex digit's value, or -1. */
function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

/**
 * `clip(parts, width)` (see message-preview) made while the parts are given, as strings or straight
 * from the bytes of JSON strings, without decoding more than the result shows: each whitespace run
 * collapses to one space, the ends are trimmed, and once more than `width` characters are known the
 * result is decided ({@link FlatClip.full}): the caller may stop giving parts (what it gives then is
 * ignored). The result is always what `clip` gives for the concatenation of every part given.
 *
 * Plain text is flattened on the way, into UTF-8 bytes decoded once by {@link FlatClip.result}. A
 * control character (which `clip` removes with the sequence it starts), a surrogate (which the bytes
 * cannot hold alone) or bytes that are not valid UTF-8 make it {@link FlatClip.failed}: give the same parts again
 * after a reset with `whole`, which decodes every part whole and gives `clip` of them ({@link
 * FlatClip.full} then never true). Reusable: {@link FlatClip.reset} starts over.
 */
export class FlatClip {
  private width = 0;
  /** The text so far as UTF-8 (`used` bytes), decoded once by `result`. */
  private out = Buffer.allocUnsafe(256);
  private used = 0;
  /** `out` may hold bytes above 0x7f (else it is ASCII: one byte per code unit). */
  private wide = false;
  /** UTF-16 code units in `out`. */
  private length = 0;
  /** Whitespace was given after the text in `out` (written as one space before the next text). */
  private space = false;
  private bytes: Buffer = Buffer.alloc(0);
  /** With `whole`: the parts given, decoded. */
  private readonly parts: string[] = [];
  private whole = false;
  /** A part could not be flattened on the way (see the class). */
  failed = false;

  /**
   * Starts a new text, clipped to `width`; `bytes`: where {@link FlatClip.addJson} reads; `whole`:
   * decode the parts whole (after {@link FlatClip.failed}).
   */
  reset(width: number, bytes: Buffer, whole = false): this {
    this.width = width;
    this.used = 0;
    this.wide = false;
    this.length = 0;
    this.space = false;
    this.bytes = bytes;
    // Only the whole way fills `parts`: setting an array's length is a runtime call, so skip it when empty.
    if (this.parts.length !== 0) this.parts.length = 0;
    this.whole = whole;
    this.failed = false;
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
      // A surrogate (which `out`, being UTF-8, cannot hold alone) is left to the whole way.
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
      this.put(text.slice(copied, at), at - copied, wide);
      wide = false;
      this.space = true;
      copied = at + 1;
    }
    this.put(text.slice(copied), text.length - copied, wide);
  }

  /**
   * Gives a part as the contents `[from, to)` of a JSON string in the bytes given to `reset` (between
   * its quotes, `to` being the closing quote's position), which must be well-formed (escapes valid).
   */
  addJson(from: number, to: number): void {
    if (this.whole) {
      this.parts.push(JSON.parse(this.bytes.toString("utf8", from - 1, to + 1)) as string);
      return;
    }
    if (!this.failed && !this.full && !this.flatten(from, to)) this.failed = true;
  }

  /** `clip` of the parts given. */
  result(): string {
    if (this.whole) return clip(this.parts, this.width);
    const { width, length, used } = this;
    const out = this.out as unknown as SliceDecoders;
    // ASCII: a code unit per byte, so the clipped text is decoded alone.
    if (!this.wide)
      return length <= width ? out.latin1Slice(0, used) : `${out.latin1Slice(0, Math.max(0, width - 1))}…`;
    const text = out.utf8Slice(0, used);
    return length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
  }

  /** Makes room in `out` for `bytes` more bytes. */
  private room(bytes: number): void {
    if (this.used + bytes <= this.out.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * this.out.length, this.used + bytes));
    this.out.copy(grown, 0, 0, this.used);
    this.out = grown;
  }

  /** Writes the space due before the next text, if one is. */
  private spaceBefore(): void {
    if (this.space && this.length > 0) {
      this.room(1);
      this.out[this.used++] = 0x20;
      this.length++;
    }
    this.space = false;
  }

  /**
   * Appends plain text of `units` code units (none of them whitespace or a surrogate), after a space
   * if one is due; `wide`: not only ASCII.
   */
  private put(text: string, units: number, wide: boolean): void {
    if (units === 0) return;
    this.spaceBefore();
    this.room(3 * text.length);
    if (wide) {
      this.used += this.out.write(text, this.used);
      this.wide = true;
    } else {
      const out = this.out;
      let used = this.used;
      for (let at = 0; at < text.length; at++) out[used++] = text.charCodeAt(at);
      this.used = used;
    }
    this.length += units;
  }

  /** Appends `[from, to)` of the bytes, plain text of `units` code units; `wide`: not only ASCII. */
  private putBytes(from: number, to: number, units: number, wide: boolean): void {
    if (units === 0) return;
    this.spaceBefore();
    this.room(to - from);
    const bytes = this.bytes;
    const out = this.out;
    let used = this.used;
    for (let at = from; at < to; at++) out[used++] = bytes[at] as number;
    this.used = used;
    this.length += units;
    if (wide) this.wide = true;
  }

  /** Flattens the JSON string contents `[from, to)` until full; false: it needs the slow way. */
  private flatten(from: number, to: number): boolean {
    const b = this.bytes;
    // The plain run not yet appended: from `run`, `units` code units, `wide` when not ASCII. A single
    // space between two plain characters stays in the run (flattening keeps it).
    let run = from;
    let units = 0;
    let wide = false;
    let at = from;
    while (at < to) {
      if (this.length + units > this.width) break;
      // A run of plain ASCII (the common case) in a tight loop, up to the width.
      const room = this.width - this.length;
      let c = b[at] as number;
      while (c > 0x20 && c < 0x7f && c !== 0x5c && units <= room) {
        units++;
        if (++at === to) break;
        c = b[at] as number;
      }
      if (at === to || units > room) continue;
      if (c === 0x20) {
        const next = b[at + 1] as number;
        if (units > 0 && at + 1 < to && next > 0x20 && next < 0x7f && next !== 0x5c) {
          at++;
          units++;
          continue;
        }
        this.putBytes(run, at, units, wide);
        units = 0;
        wide = false;
        this.space = true;
        run = ++at;
        continue;
      }
      if (c === 0x5c) {
        const e = b[at + 1] as number;
        this.putBytes(run, at, units, wide);
        units = 0;
        wide = false;
        if (e === 0x6e || e === 0x74) {
          this.space = true;
          at += 2;
          run = at;
        } else if (e === 0x22 || e === 0x5c || e === 0x2f) {
          // The escaped character is the byte after the backslash: the run goes on from there.
          run = at + 1;
          units = 1;
          at += 2;
        } else if (e === 0x75) {
          const unit =
            (hexValue(b[at + 2] as number) << 12) |
            (hexValue(b[at + 3] as number) << 8) |
            (hexValue(b[at + 4] as number) << 4) |
            hexValue(b[at + 5] as number);
          const kind = flatCharacterKind(unit);
          // A control character, or a surrogate (`out` is UTF-8): the whole way.
          if (kind === 2 || (unit >= 0xd800 && unit <= 0xdfff)) return false;
          if (kind === 1) this.space = true;
          else this.put(String.fromCharCode(unit), 1, unit > 0x7f);
          at += 6;
          run = at;
        } else return false; // \b \f \r: control characters
        continue;
      }
      if (c < 0xc2 || c > 0xf4) return false; // a control, a continuation byte, an overlong lead
      let code: number;
      let size: number;
      const c1 = b[at + 1] as number;
      if ((c1 & 0xc0) !== 0x80) return false;
      if (c < 0xe0) {
        code = ((c & 0x1f) << 6) | (c1 & 0x3f);
        size = 2;
      } else {
        const c2 = b[at + 2] as number;
        if ((c2 & 0xc0) !== 0x80) return false;
        if (c < 0xf0) {
          code = ((c & 0x0f) << 12) | ((c1 & 0x3f) << 6) | (c2 & 0x3f);
          if (code < 0x800 || (code >= 0xd800 && code <= 0xdfff)) return false;
          size = 3;
        } else {
          const c3 = b[at + 3] as number;
          if ((c3 & 0xc0) !== 0x80) return false;
          code = ((c & 0x07) << 18) | ((c1 & 0x3f) << 12) | ((c2 & 0x3f) << 6) | (c3 & 0x3f);
          if (code < 0x10000 || code > 0x10ffff) return false;
          // Two code units, and no character to classify (none above U+FFFF is a space or control).
          at += 4;
          units += 2;
          wide = true;
          continue;
        }
      }
      const kind = flatCharacterKind(code);
      if (kind === 2) return false;
      if (kind === 1) {
        this.putBytes(run, at, units, wide);
        units = 0;
        wide = false;
        this.space = true;
        at += size;
        run = at;
        continue;
      }
      at += size;
      units++;
      wide = true;
    }
    this.putBytes(run, at, units, wide);
    return true;
  }
}
