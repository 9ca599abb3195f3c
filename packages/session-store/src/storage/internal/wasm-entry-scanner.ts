import type { StoredEntryRecord } from "../session-storage";
import { HEAD_PARENT_NULL, HEAD_PARENT_PREVIOUS, HEAD_SLOTS } from "./entry-head-slots";
import { entryHeadWasm } from "./entry-head-wasm";
import { ascii, cachedAscii, type PreviousId } from "./extract-entry-record";
import type { RecordTable } from "./record-table";

/** Where the chunk bytes start in the module's memory (the result slots are at 0). */
const CHUNK_AT = 64;
const PAGE = 65536;

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
 * The load scan's record extraction in WebAssembly (`entryHeadProgram`): a chunk buffer that lives
 * in the module's memory ({@link WasmEntryScanner.chunk}) and {@link WasmEntryScanner.extract}, which
 * gives for lines of that buffer exactly what `scanEntryRecord` gives. The module (kept assembled in
 * entry-head-wasm.ts) is compiled once per process, when a first large file is scanned (a small one
 * never needs it).
 */
export class WasmEntryScanner {
  private readonly memory: WasmMemory;
  private readonly head: (start: number, end: number, prevStart: number, prevEnd: number) => number;
  private readonly slots: Int32Array;
  private readonly bytes: Buffer;

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
      head: WasmEntryScanner["head"];
      memory: WasmMemory;
    };
    this.memory = exports.memory;
    this.head = exports.head;
    const needed = Math.ceil((CHUNK_AT + capacity) / PAGE);
    if (needed > 1) this.memory.grow(needed - 1);
    this.slots = new Int32Array(this.memory.buffer, 0, 8);
    this.bytes = Buffer.from(this.memory.buffer, CHUNK_AT, capacity);
  }

  /** The chunk buffer (`capacity` bytes): lines read into it can be passed to {@link extract}. */
  chunk(): Buffer {
    return this.bytes;
  }

  /** True when `buf` is (a view from the start of) this scanner's chunk buffer. */
  owns(buf: Buffer): boolean {
    return buf.buffer === this.memory.buffer && buf.byteOffset === CHUNK_AT;
  }

  /**
   * `scanEntryRecord(buf, start, end, previous)` for `buf` owned by this scanner (see {@link owns}):
   * the same record or `undefined`, and the same update of `previous`.
   */
  extract(buf: Buffer, start: number, end: number, previous: PreviousId): StoredEntryRecord | undefined {
    // One function, as before the columns (`scan` and the field readers serve `pushInto`): the
    // split version made a 10k-entry open compile more for the same work.
    const chained = previous.buf === buf && previous.id !== undefined;
    const found = this.head(
      CHUNK_AT + start,
      CHUNK_AT + end,
      chained ? CHUNK_AT + previous.start : -1,
      chained ? CHUNK_AT + previous.end : -1,
    );
    if (found === 0) return undefined;
    const slots = this.slots;
    const typeEnd = (slots[HEAD_SLOTS.typeEnd] as number) - CHUNK_AT;
    const type = cachedAscii(buf, (slots[HEAD_SLOTS.typeStart] as number) - CHUNK_AT, typeEnd);
    const idStart = typeEnd + 8;
    const idEnd = (slots[HEAD_SLOTS.idEnd] as number) - CHUNK_AT;
    const parentStart = slots[HEAD_SLOTS.parentStart] as number;
    const parentId =
      parentStart === HEAD_PARENT_NULL
        ? null
        : parentStart === HEAD_PARENT_PREVIOUS
          ? (previous.id as string)
          : ascii(buf, parentStart - CHUNK_AT, (slots[HEAD_SLOTS.parentEnd] as number) - CHUNK_AT);
    const roleStart = slots[HEAD_SLOTS.roleStart] as number;
    const role =
      roleStart < 0
        ? undefined
        : cachedAscii(buf, roleStart - CHUNK_AT, (slots[HEAD_SLOTS.roleEnd] as number) - CHUNK_AT);
    const id = ascii(buf, idStart, idEnd);
    previous.buf = buf;
    previous.start = idStart;
    previous.end = idEnd;
    previous.id = id;
    previous.hash = (slots[HEAD_SLOTS.hash] as number) >>> 0;
    return { id, parentId, type, role };
  }

  /**
   * Like {@link extract}, but pushes the record into `table` (`RecordTable.pushScanned`: no string
   * for its id, nor for a parent id that is the previous line's) and returns whether there was one.
   * `previous` is updated without an id string: do not pass it to {@link extract} afterwards.
   */
  pushInto(
    table: RecordTable,
    buf: Buffer,
    start: number,
    end: number,
    previous: PreviousId,
    offset: number,
    length: number,
    line: number,
  ): boolean {
    if (!this.scan(buf, start, end, previous, true)) return false;
    const parentStart = this.slots[HEAD_SLOTS.parentStart] as number;
    const parentId = parentStart === HEAD_PARENT_PREVIOUS ? undefined : this.parentId(buf, parentStart);
    previous.id = undefined;
    const { start: idStart, end: idEnd, hash } = previous;
    table.pushScanned(
      buf,
      idStart,
      idEnd,
      hash,
      parentId,
      this.type(buf),
      this.role(buf),
      offset,
      length,
      line,
    );
    return true;
  }

  /**
   * Runs the program on `buf[start, end)`; when the line matches, its slots hold what it found and
   * `previous` locates its id (`id` left to the caller). `chainable`: `previous` names an id of this
   * buffer the program may compare the parent id with.
   */
  private scan(buf: Buffer, start: number, end: number, previous: PreviousId, chainable: boolean): boolean {
    const chained = chainable && previous.buf === buf;
    const found = this.head(
      CHUNK_AT + start,
      CHUNK_AT + end,
      chained ? CHUNK_AT + previous.start : -1,
      chained ? CHUNK_AT + previous.end : -1,
    );
    if (found === 0) return false;
    const slots = this.slots;
    const idStart = (slots[HEAD_SLOTS.typeEnd] as number) - CHUNK_AT + 8;
    previous.buf = buf;
    previous.start = idStart;
    previous.end = (slots[HEAD_SLOTS.idEnd] as number) - CHUNK_AT;
    previous.hash = (slots[HEAD_SLOTS.hash] as number) >>> 0;
    return true;
  }

  /** The type the last {@link scan} found. */
  private type(buf: Buffer): string {
    const slots = this.slots;
    return cachedAscii(
      buf,
      (slots[HEAD_SLOTS.typeStart] as number) - CHUNK_AT,
      (slots[HEAD_SLOTS.typeEnd] as number) - CHUNK_AT,
    );
  }

  /** The role the last {@link scan} found, if any. */
  private role(buf: Buffer): string | undefined {
    const slots = this.slots;
    const roleStart = slots[HEAD_SLOTS.roleStart] as number;
    return roleStart < 0
      ? undefined
      : cachedAscii(buf, roleStart - CHUNK_AT, (slots[HEAD_SLOTS.roleEnd] as number) - CHUNK_AT);
  }

  /** The parent id the last {@link scan} found, unless it is the previous line's id. */
  private parentId(buf: Buffer, parentStart: number): string | null {
    return parentStart === HEAD_PARENT_NULL
      ? null
      : ascii(buf, parentStart - CHUNK_AT, (this.slots[HEAD_SLOTS.parentEnd] as number) - CHUNK_AT);
  }
}
