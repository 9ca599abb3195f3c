import type { CliIo } from "../cli-io";

/** Node's `Buffer` encoder behind `write` (not in its typings), called directly: the room is known. */
interface Utf8Writer {
  utf8Write(text: string, offset: number): number;
}

/** Bytes a batch starts with room for (it grows when a batch needs more). */
const INITIAL_BYTES = 192 * 1024;

/**
 * Lines gathered as UTF-8 bytes and written in one piece: what `write(lines.join("\n") + "\n")`
 * writes, without joining the texts or encoding them twice (through `writeBytes` when the stream has
 * it, see `CliIo`). Each flush hands the stream a buffer of its own (a stream may hold it until it is
 * written) and starts a new one.
 */
export class LineBatch {
  private bytes = Buffer.allocUnsafe(INITIAL_BYTES);
  private used = 0;
  /** Lines in the batch. */
  count = 0;

  constructor(private readonly out: CliIo["stdout"]) {}

  /** Adds `line` and a newline after it. */
  add(line: string): void {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8 (a surrogate pair, 4 bytes for 2 units).
    const most = this.used + 3 * line.length + 1;
    if (most > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(most, 2 * this.bytes.length));
      this.bytes.copy(grown, 0, 0, this.used);
      this.bytes = grown;
    }
    this.used += (this.bytes as unknown as Utf8Writer).utf8Write(line, this.used);
    this.bytes[this.used++] = 0x0a;
    this.count++;
  }

  /** Writes the lines added since the last flush (nothing when none); returns what the write returned. */
  flush(): unknown {
    if (this.count === 0) return true;
    const chunk = this.bytes.subarray(0, this.used);
    this.bytes = Buffer.allocUnsafe(Math.max(INITIAL_BYTES, this.bytes.length));
    this.used = 0;
    this.count = 0;
    return this.out.writeBytes ? this.out.writeBytes(chunk) : this.out.write(chunk.toString("utf8"));
  }
}
