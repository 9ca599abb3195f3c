import { ENTRY_LINE } from "./entry-head-slots";
import { entryHeadWasm } from "./entry-head-wasm";

/** Where the chunk bytes start in the module's memory (word 0 is the program's resume position). */
const CHUNK_AT = 64;
const PAGE = 65536;
/** Line records one call of the program writes at most (then it is called again). */
const RECORDS_PER_CALL = 4096;

/** The part of the WebAssembly API used here (the store's TypeScript libraries do not declare it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}

let compiled: object | undefined;
/** Set when WebAssembly turned out missing or failing in this process (e.g. `node --jitless`). */
let unavailable = false;

/**
 * The load scan's line splitting and record extraction in WebAssembly (`entryHeadProgram`): a chunk
 * buffer that lives in the module's memory ({@link WasmEntryScanner.chunk}) and
 * {@link WasmEntryScanner.scanLines}, which records every line of a range of it in one call: where
 * it starts and ends, and, for a line `scanEntryRecord` would take, where its type, id, parent and
 * role are (see `ENTRY_LINE`). The module (kept assembled in entry-head-wasm.ts) is compiled once
 * per process, when a first file of some size is scanned (a small one never needs it).
 */
export class WasmEntryScanner {
  private readonly lines: (start: number, end: number, out: number, outEnd: number) => number;
  private readonly bytes: Buffer;
  /** The module's memory as i32 words: the records of the last {@link scanLines} call. */
  readonly words: Int32Array;
  /** Index in {@link words} of the first record. */
  readonly recordsAt: number;
  /** Subtract from a record's positions to get offsets in the chunk buffer. */
  readonly base = CHUNK_AT;

  /**
   * A scanner whose chunk buffer holds up to `capacity` bytes, or `undefined` where WebAssembly is
   * not available (`node --jitless` has none) or cannot be instantiated: the caller then uses the
   * JavaScript loop, which gives the same records.
   */
  static create(capacity: number): WasmEntryScanner | undefined {
    const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
    if (unavailable || api === undefined) return undefined;
    try {
      return new WasmEntryScanner(api, capacity);
    } catch {
      unavailable = true;
      return undefined;
    }
  }

  private constructor(
    api: WasmApi,
    readonly capacity: number,
  ) {
    compiled ??= new api.Module(Buffer.from(entryHeadWasm, "base64"));
    const exports = new api.Instance(compiled).exports as {
      lines: WasmEntryScanner["lines"];
      memory: WasmMemory;
    };
    const memory = exports.memory;
    this.lines = exports.lines;
    // The program reads 16 bytes at a time, up to 15 past the chunk's end: room for them.
    const recordsAt = (CHUNK_AT + capacity + 16 + 3) & ~3;
    const needed = Math.ceil((recordsAt + RECORDS_PER_CALL * ENTRY_LINE.bytes) / PAGE);
    if (needed > 1) memory.grow(needed - 1);
    this.words = new Int32Array(memory.buffer);
    this.recordsAt = recordsAt >> 2;
    this.bytes = Buffer.from(memory.buffer, CHUNK_AT, capacity);
  }

  /** The chunk buffer (`capacity` bytes): lines read into it can be passed to {@link scanLines}. */
  chunk(): Buffer {
    return this.bytes;
  }

  /** True when `buf` is (a view from the start of) this scanner's chunk buffer. */
  owns(buf: Buffer): boolean {
    return buf.buffer === this.bytes.buffer && buf.byteOffset === CHUNK_AT;
  }

  /**
   * Records the lines of the chunk buffer from offset `from` that end with a newline before offset
   * `end` (at most {@link WasmEntryScanner.recordsPerCall}; records at {@link recordsAt} in
   * {@link words}, `ENTRY_LINE.words` each, positions {@link base} above chunk offsets); returns
   * how many. {@link resumeAt} then tells where the first line not recorded starts.
   */
  scanLines(from: number, end: number): number {
    const out = this.recordsAt << 2;
    return this.lines(CHUNK_AT + from, CHUNK_AT + end, out, out + RECORDS_PER_CALL * ENTRY_LINE.bytes);
  }

  /** The chunk offset where the line after the last one {@link scanLines} recorded starts. */
  resumeAt(): number {
    return (this.words[0] as number) - CHUNK_AT;
  }

  /** See {@link scanLines}. */
  readonly recordsPerCall = RECORDS_PER_CALL;
}
