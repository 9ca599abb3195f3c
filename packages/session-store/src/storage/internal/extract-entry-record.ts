import type { StoredEntryRecord } from "../session-storage";

/*
 * Fast extraction of { type, id, parentId, message.role } from one JSONL line without JSON.parse.
 *
 * pi and Arbor write entries with JSON.stringify and the keys in this order:
 *   {"type":"<t>","id":"<id>","parentId":"<p>"|null,"timestamp":"<ts>","message":{"role":"<r>",...
 * The fast path accepts a line only if it starts exactly like that and every string it extracts is
 * plain printable ASCII without a backslash, so the bytes decode to the same string JSON.parse would
 * give. Anything else (other key orders such as custom_message, escapes, non-ASCII, whitespace, v1
 * entries without ids) falls back to JSON.parse of that one line.
 */

const TYPE_PREFIX = bytes('{"type":"');
const ID_KEY = bytes('","id":"');
const PARENT_KEY = bytes('","parentId":');
const TIMESTAMP_KEY = bytes(',"timestamp":"');
const ROLE_KEY = bytes('","message":{"role":"');
const NULL = bytes("null");
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CLOSE_BRACE = 0x7d;

const interned = new Map<string, string>();
const INTERN_LIMIT = 4096;

/** Small cache of `type`/`role` values by their bytes, so a known value costs no new string. */
const byBytes: { bytes: Uint8Array; value: string }[][] = [];
const BYTES_CACHE_LIMIT = 64;
let bytesCached = 0;

function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Shares one string instance per distinct `type`/`role` value (bounded). */
function intern(value: string): string {
  const known = interned.get(value);
  if (known !== undefined) return known;
  if (interned.size < INTERN_LIMIT) interned.set(value, value);
  return value;
}

function matchesAt(buf: Uint8Array, pos: number, pattern: Uint8Array, end: number): boolean {
  if (pos + pattern.length > end) return false;
  for (let i = 0; i < pattern.length; i++) if (buf[pos + i] !== pattern[i]) return false;
  return true;
}

/** Index of the closing quote of a plain ASCII string starting at `pos`, or -1 if it needs JSON.parse. */
function plainStringEnd(buf: Uint8Array, pos: number, end: number): number {
  for (let i = pos; i < end; i++) {
    const c = buf[i] as number;
    if (c === QUOTE) return i;
    if (c === BACKSLASH || c < 0x20 || c > 0x7e) return -1;
  }
  return -1;
}

/**
 * The string of the plain-ASCII bytes `buf[start, end)`. Ids of 8 characters (what pi and Arbor
 * write) are made by `String.fromCharCode` directly: several times cheaper than a `Buffer` decode call
 * for so few bytes, and one such string is made per line of a session file.
 */
export function ascii(buf: Buffer, start: number, end: number): string {
  if (end - start === 8) {
    return String.fromCharCode(
      buf[start] as number,
      buf[start + 1] as number,
      buf[start + 2] as number,
      buf[start + 3] as number,
      buf[start + 4] as number,
      buf[start + 5] as number,
      buf[start + 6] as number,
      buf[start + 7] as number,
    );
  }
  return buf.toString("latin1", start, end);
}

/** The string of the plain-ASCII bytes `buf[start, end)`, shared with earlier identical values. */
export function cachedAscii(buf: Buffer, start: number, end: number): string {
  const length = end - start;
  const bucket = byBytes[length];
  if (bucket !== undefined) {
    for (const candidate of bucket) {
      const bytes = candidate.bytes;
      let same = true;
      for (let i = 0; i < length; i++) {
        if (bytes[i] !== buf[start + i]) {
          same = false;
          break;
        }
      }
      if (same) return candidate.value;
    }
  }
  const value = intern(ascii(buf, start, end));
  if (bytesCached < BYTES_CACHE_LIMIT) {
    bytesCached++;
    const entry = { bytes: Uint8Array.from(buf.subarray(start, end)), value };
    if (bucket === undefined) byBytes[length] = [entry];
    else bucket.push(entry);
  }
  return value;
}

/**
 * The id of the previous fast-scanned line and where its bytes are, so that a `parentId` equal to it
 * (the common case: a linear chain) reuses the same string instead of allocating another.
 */
export interface PreviousId {
  buf: Buffer | undefined;
  start: number;
  end: number;
  id: string | undefined;
  /** `IdIndex.hash` of `id`, computed from its bytes while they were scanned. */
  hash: number;
}

function sameBytes(a: Buffer, aStart: number, b: Buffer, bStart: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (a[aStart + i] !== b[bStart + i]) return false;
  return true;
}

/**
 * Extracts the record of an entry line with the fast path. `end` is exclusive and must already exclude
 * trailing whitespace. Returns `undefined` when the line does not match the fast pattern (the caller
 * then parses the line fully); a returned record always equals `recordFromEntry(JSON.parse(line))`
 * for lines that parse (duplicate top-level keys aside, which JSON.stringify never writes).
 */
export function scanEntryRecord(
  buf: Buffer,
  start: number,
  end: number,
  previous?: PreviousId,
): StoredEntryRecord | undefined {
  if (end - start < 2 || buf[end - 1] !== CLOSE_BRACE) return undefined;
  if (!matchesAt(buf, start, TYPE_PREFIX, end)) return undefined;
  const typeStart = start + TYPE_PREFIX.length;
  const typeEnd = plainStringEnd(buf, typeStart, end);
  if (typeEnd < 0 || !matchesAt(buf, typeEnd, ID_KEY, end)) return undefined;
  const idStart = typeEnd + ID_KEY.length;
  // The id's end and its hash (FNV-1a, as `IdIndex.hash` computes it over the decoded characters) in one pass.
  let idEnd = -1;
  let hash = 0x811c9dc5;
  for (let i = idStart; i < end; i++) {
    const c = buf[i] as number;
    if (c === QUOTE) {
      idEnd = i;
      break;
    }
    if (c === BACKSLASH || c < 0x20 || c > 0x7e) return undefined;
    hash = Math.imul(hash ^ c, 0x01000193);
  }
  if (idEnd < 0 || !matchesAt(buf, idEnd, PARENT_KEY, end)) return undefined;
  let pos = idEnd + PARENT_KEY.length;
  let parentId: string | null;
  if (matchesAt(buf, pos, NULL, end)) {
    parentId = null;
    pos += NULL.length;
  } else if (buf[pos] === QUOTE) {
    const parentEnd = plainStringEnd(buf, pos + 1, end);
    if (parentEnd < 0) return undefined;
    const length = parentEnd - pos - 1;
    parentId =
      previous?.buf !== undefined &&
      previous.id !== undefined &&
      previous.end - previous.start === length &&
      sameBytes(buf, pos + 1, previous.buf, previous.start, length)
        ? previous.id
        : ascii(buf, pos + 1, parentEnd);
    pos = parentEnd + 1;
  } else {
    return undefined;
  }
  // The value must be followed by another key or the end of the object, as JSON.stringify writes it.
  const after = buf[pos];
  if (after !== 0x2c && after !== CLOSE_BRACE) return undefined;
  const type = cachedAscii(buf, typeStart, typeEnd);
  let role: string | undefined;
  if (type === "message") {
    if (!matchesAt(buf, pos, TIMESTAMP_KEY, end)) return undefined;
    const tsEnd = plainStringEnd(buf, pos + TIMESTAMP_KEY.length, end);
    if (tsEnd < 0 || !matchesAt(buf, tsEnd, ROLE_KEY, end)) return undefined;
    const roleStart = tsEnd + ROLE_KEY.length;
    const roleEnd = plainStringEnd(buf, roleStart, end);
    if (roleEnd < 0) return undefined;
    role = cachedAscii(buf, roleStart, roleEnd);
  }
  const id = ascii(buf, idStart, idEnd);
  if (previous !== undefined) {
    previous.buf = buf;
    previous.start = idStart;
    previous.end = idEnd;
    previous.id = id;
    previous.hash = hash >>> 0;
  }
  return { id, parentId, type, role };
}

/**
 * Builds the record of a parsed entry. Returns `undefined` when the value is not an object with a
 * string `type` (such a line is reported as corrupt).
 */
export function recordFromEntry(entry: unknown): StoredEntryRecord | undefined {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return undefined;
  const e = entry as Record<string, unknown>;
  if (typeof e.type !== "string") return undefined;
  const type = intern(e.type);
  const id = typeof e.id === "string" ? e.id : undefined;
  const parentId = typeof e.parentId === "string" || e.parentId === null ? e.parentId : undefined;
  let role: string | undefined;
  if (type === "message" && typeof e.message === "object" && e.message !== null) {
    const r = (e.message as Record<string, unknown>).role;
    if (typeof r === "string") role = intern(r);
  }
  return { id, parentId, type, role };
}
