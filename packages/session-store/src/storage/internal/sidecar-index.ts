import { dirname, join } from "node:path";
import { nodeCrypto } from "../../internal/node-crypto";
import { sha256Hex } from "../../internal/sha256-hex";
import type { StorageLoadIssue, StoredEntryRecord } from "../session-storage";
import { decodeSidecarPayload } from "./decode-sidecar-payload";
import type { RecordColumnFields } from "./record-column-fields";
import { PARENT_MISSING, type TableColumns } from "./record-table";
import { readFully, type StorageFs } from "./storage-fs";

/*
 * Sidecar index (`<session>.idx`, or a file in a cache folder): a cache of the load-time scan of a prefix of the session file, so a
 * reopen only scans the bytes appended since. Never trusted blindly: it is used only if its own digest
 * matches, the file still has the same inode, the covered prefix still ends with a newline, and a
 * digest of sampled blocks of the covered prefix (first and last 4 KiB plus 16 blocks of 256 bytes
 * spread across it) is unchanged. Layout (little-endian), see the package README "Storage":
 *
 *   0   "ARBORIDX"          8   format version u32    12  record count u32
 *   16  covered bytes f64   24  covered lines f64     32  file size when written f64
 *   40  file mtimeMs f64    48  file inode f64        56  sample digest (sha256, 32 bytes)
 *   88  payload digest (sha256, 32 bytes)             120 payload length f64
 *   128 payload: starts f64[n], lengths u32[n], lines u32[n], parent index i32[n], id hash u32[n],
 *       typeIndex u16[n], roleIndex u16[n], zero padding to 4, slot count u32, id slots i32[slots],
 *       zero padding to 8, then UTF-8 JSON {header, issues, types, roles, ids, parents, idCount, duplicates}
 *
 * parent index: the parent's record index, -1 null, -2 absent, -3 missing (its id is the next string
 * of `parents`). ids: a "\n"-joined string when every id is a string without "\n", else an array of
 * string|null. id slots/hashes: the open-addressing id table of the records (see IdIndex).
 */

const MAGIC = "ARBORIDX";
/** The whole content of the marker left by a first read-only open (see `writeSidecarMarker`). */
const MARKER = "ARBORIDX-PENDING\n";
/** The `reason` {@link readSidecarIndex} gives for a marker instead of an index. */
export const SIDECAR_MARKER_REASON = "marker of an earlier open";
const FORMAT_VERSION = 2;
const HEADER_BYTES = 128;

/**
 * A sidecar index's records as columns, for a table of columns: no object and no id string per
 * record. `missing`: the parent id of each record whose parent index is `PARENT_MISSING`.
 */
export interface IndexedColumns {
  fields: RecordColumnFields;
  missing: Map<number, string>;
}

/** What the index covers and holds, as read. */
export interface SidecarIndexData {
  header: Record<string, unknown> | undefined;
  /** The records as objects, or as columns when read for a table of columns. */
  records: StoredEntryRecord[] | IndexedColumns;
  columns: TableColumns;
  issues: StorageLoadIssue[];
  /** Bytes of the session file covered (always just after a newline). */
  coveredBytes: number;
  /** Lines of the session file covered. */
  coveredLines: number;
}

/**
 * What a writer gives of its records, read by index, with no object per record (a `RecordTable` is
 * one): `missingParentOf(i)` is the parent id of a record whose parent index is `PARENT_MISSING`.
 */
export interface SidecarRecordSource {
  readonly size: number;
  idOf(i: number): string | undefined;
  typeOf(i: number): string | undefined;
  roleOf(i: number): string | undefined;
  missingParentOf(i: number): string | undefined;
}

/** What {@link writeSidecarIndex} writes: {@link SidecarIndexData} with the records as a source. */
export interface SidecarIndexContent extends Omit<SidecarIndexData, "records"> {
  records: SidecarRecordSource;
}

/** Result of reading the sidecar: the data, or why it was not used. */
export type SidecarReadResult = { ok: true; data: SidecarIndexData } | { ok: false; reason: string };

/**
 * Where the index of `sessionPath` lives for a storage's `sidecarIndex` option (see
 * `JsonlStorageOptions`): nowhere (`false`, the default), `<session>.idx` beside it (`true`), or
 * `<dir>/<first 32 hex characters of SHA-256 of the absolute session path>.idx` (`{ dir }`).
 */
export function sidecarIndexPath(
  sessionPath: string,
  option: boolean | { dir: string } | undefined,
): string | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return `${sessionPath}.idx`;
  const key = sha256Hex(sessionPath).slice(0, 32);
  return join(option.dir, `${key}.idx`);
}

/**
 * Reads and validates the index at `indexPath` for the session open on `fd` (whose current size and
 * inode are given). Never throws: any problem gives `{ ok: false, reason }` and the caller rescans.
 * `columnar`: give the records as {@link IndexedColumns} (for a table of columns) rather than objects;
 * either way the typed columns are views of the file's bytes when aligned (no copy).
 */
export function readSidecarIndex(
  fs: StorageFs,
  indexPath: string,
  fd: number,
  file: { size: number; ino: number },
  columnar = false,
): SidecarReadResult {
  let raw: Buffer;
  try {
    raw = fs.readFileSync(indexPath);
  } catch {
    return { ok: false, reason: "missing" };
  }
  try {
    if (raw.length === MARKER.length && raw.toString("latin1") === MARKER)
      return { ok: false, reason: SIDECAR_MARKER_REASON };
    if (raw.length < HEADER_BYTES || raw.toString("latin1", 0, 8) !== MAGIC)
      return { ok: false, reason: "not an index" };
    if (raw.readUInt32LE(8) !== FORMAT_VERSION) return { ok: false, reason: "unknown format version" };
    const n = raw.readUInt32LE(12);
    const coveredBytes = raw.readDoubleLE(16);
    const coveredLines = raw.readDoubleLE(24);
    const ino = raw.readDoubleLE(48);
    const payloadLength = raw.readDoubleLE(120);
    if (raw.length !== HEADER_BYTES + payloadLength) return { ok: false, reason: "truncated" };
    const payload = raw.subarray(HEADER_BYTES);
    if (!digest(payload).equals(raw.subarray(88, 120))) return { ok: false, reason: "index digest mismatch" };
    if (ino !== 0 && file.ino !== 0 && ino !== file.ino)
      return { ok: false, reason: "different file (inode)" };
    if (coveredBytes > file.size) return { ok: false, reason: "file is shorter than the indexed prefix" };
    if (!sampleDigest(fs, fd, coveredBytes).equals(raw.subarray(56, 88))) {
      return { ok: false, reason: "indexed prefix changed" };
    }
    return { ok: true, data: decodeSidecarPayload(payload, n, coveredBytes, coveredLines, columnar) };
  } catch (error) {
    return { ok: false, reason: `unreadable (${error instanceof Error ? error.message : String(error)})` };
  }
}

/**
 * Writes the index to `indexPath` atomically (temp file + rename, no fsync: it is a cache that
 * validates itself), creating its folder when needed. Returns false instead of throwing when it
 * cannot be written.
 */
export function writeSidecarIndex(
  fs: StorageFs,
  indexPath: string,
  fd: number,
  data: SidecarIndexContent,
  file: { size: number; mtimeMs: number; ino: number },
): boolean {
  const target = indexPath;
  const temp = `${target}.tmp-${process.pid}`;
  try {
    fs.mkdirSync(dirname(target), { recursive: true });
    // The payload's parts are hashed and written one after the other, never joined into one buffer.
    const payload = encodePayload(data);
    const payloadLength = payload.reduce((sum, part) => sum + part.length, 0);
    const head = Buffer.alloc(HEADER_BYTES);
    head.write(MAGIC, 0, "latin1");
    head.writeUInt32LE(FORMAT_VERSION, 8);
    head.writeUInt32LE(data.records.size, 12);
    head.writeDoubleLE(data.coveredBytes, 16);
    head.writeDoubleLE(data.coveredLines, 24);
    head.writeDoubleLE(file.size, 32);
    head.writeDoubleLE(file.mtimeMs, 40);
    head.writeDoubleLE(file.ino, 48);
    sampleDigest(fs, fd, data.coveredBytes).copy(head, 56);
    digest(...payload).copy(head, 88);
    head.writeDoubleLE(payloadLength, 120);
    const out = fs.openSync(temp, "w");
    try {
      for (const part of [head, ...payload]) {
        let written = 0;
        while (written < part.length) written += fs.writeSync(out, part, written, part.length - written);
      }
    } finally {
      fs.closeSync(out);
    }
    fs.renameSync(temp, target);
    return true;
  } catch {
    try {
      fs.unlinkSync(temp);
    } catch {
      // nothing to clean up
    }
    return false;
  }
}

/**
 * Writes the marker that stands for "opened once, no index yet" at `indexPath` (a few bytes instead
 * of the index), creating its folder when needed; the next open that finds it writes the index.
 * Never throws (it is only a cache hint).
 */
export function writeSidecarMarker(fs: StorageFs, indexPath: string): void {
  try {
    fs.mkdirSync(dirname(indexPath), { recursive: true });
    const fd = fs.openSync(indexPath, "w");
    try {
      fs.writeSync(fd, Buffer.from(MARKER, "latin1"));
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // a cache hint: without it the next open simply writes the marker again
  }
}

/** Removes the index at `indexPath` (after a rewrite). Never throws. */
export function removeSidecarIndex(fs: StorageFs, indexPath: string): void {
  try {
    fs.unlinkSync(indexPath);
  } catch {
    // absent already
  }
}

/** sha256 of the concatenation of `parts`. */
function digest(...parts: Buffer[]): Buffer {
  const hash = nodeCrypto().createHash("sha256");
  for (const part of parts) hash.update(part);
  return hash.digest();
}

/** sha256 of the covered length plus sampled blocks of the covered prefix. */
function sampleDigest(fs: StorageFs, fd: number, covered: number): Buffer {
  const hash = nodeCrypto().createHash("sha256").update(`arbor-idx:${covered}`);
  const block = Buffer.allocUnsafe(4096);
  const sample = (position: number, length: number) => {
    const len = Math.max(0, Math.min(length, covered - position));
    const n = readFully(fs, fd, block, 0, len, position);
    hash.update(block.subarray(0, n));
  };
  sample(0, 4096);
  for (let k = 1; k <= 16; k++) sample(Math.floor((covered * k) / 17), 256);
  sample(Math.max(0, covered - 4096), 4096);
  return hash.digest();
}

/** The payload (layout: see the top of this file), as the parts to write one after the other. */
function encodePayload(data: SidecarIndexContent): Buffer[] {
  const { columns, records } = data;
  const n = records.size;
  const typeIndex = new Uint16Array(n);
  const roleIndex = new Uint16Array(n);
  const types: string[] = [];
  const roles: string[] = [];
  const typeSlots = new Map<string, number>();
  const roleSlots = new Map<string, number>();
  const parents: string[] = [];
  const ids: (string | null)[] = new Array(n);
  let simpleIds = true;
  for (let i = 0; i < n; i++) {
    const id = records.idOf(i);
    if (id === undefined || id.includes("\n")) simpleIds = false;
    ids[i] = id ?? null;
    if (columns.parents[i] === PARENT_MISSING) parents.push(records.missingParentOf(i) as string);
    typeIndex[i] = slot(typeSlots, types, records.typeOf(i) as string);
    const role = records.roleOf(i);
    roleIndex[i] = role === undefined ? 0 : slot(roleSlots, roles, role) + 1;
  }
  const { idIndex } = columns;
  const meta = {
    header: data.header,
    issues: data.issues,
    types,
    roles,
    ids: simpleIds ? ids.join("\n") : ids,
    parents,
    idCount: idIndex.count,
    duplicates: idIndex.duplicates,
  };
  const json = Buffer.from(JSON.stringify(meta));
  const slotCount = new Uint32Array([idIndex.slots.length]);
  const parts = [
    columns.starts,
    columns.lengths,
    columns.lines,
    columns.parents,
    idIndex.hashes,
    typeIndex,
    roleIndex,
  ];
  const chunks: Buffer[] = [];
  let at = 0;
  const add = (view: ArrayBufferView, align: number) => {
    const pad = (align - (at % align)) % align;
    if (pad) chunks.push(Buffer.alloc(pad));
    chunks.push(Buffer.from(view.buffer, view.byteOffset, view.byteLength));
    at += pad + view.byteLength;
  };
  for (const part of parts) add(part, 1);
  add(slotCount, 4);
  add(idIndex.slots, 4);
  add(json, 8);
  return chunks;
}

function slot(slots: Map<string, number>, list: string[], value: string): number {
  let index = slots.get(value);
  if (index === undefined) {
    index = list.length;
    if (index >= 0xfffe) throw new Error("too many distinct types or roles for the index");
    list.push(value);
    slots.set(value, index);
  }
  return index;
}
