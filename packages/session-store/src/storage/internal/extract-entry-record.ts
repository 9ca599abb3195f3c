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
 *
 * The match is one regular expression over the line's first bytes decoded as latin1 (one character
 * per byte, so string offsets are byte offsets): the regular expression engine compiles to machine
 * code at once, where a byte loop in JavaScript runs interpreted for the first thousand lines of a
 * process (that cold start was most of the open time of a small session).
 */

/** Printable ASCII without the quote and the backslash: bytes whose latin1 decoding is what JSON.parse gives. */
const PLAIN = "[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]*";
/** Groups: 1 type, 2 id, 3 parentId (absent for null), 4 role (absent without the timestamp and role). */
const ENTRY_START = new RegExp(
  `^\\{"type":"(${PLAIN})","id":"(${PLAIN})","parentId":(?:null|"(${PLAIN})")(?:,"timestamp":"${PLAIN}","message":\\{"role":"(${PLAIN})"|[,}])`,
);
/**
 * Bytes decoded per line: the keys above with pi's 8-character ids take about 125. A line whose
 * start does not match within them is tried once more with up to {@link LONG_HEAD_BYTES} (long ids).
 */
const HEAD_BYTES = 192;
const LONG_HEAD_BYTES = 4096;
const CLOSE_BRACE = 0x7d;
/** Where the type starts in a match, and the id after the type: `{"type":"` + type + `","id":"`. */
const TYPE_OFFSET = '{"type":"'.length;
const ID_OFFSET = TYPE_OFFSET + '","id":"'.length;
/** V8 keeps a substring of at least this many characters as a view of its parent string. */
const SLICE_MIN = 13;

const interned = new Map<string, string>();
const INTERN_LIMIT = 4096;

/**
 * Shares one string instance per distinct `type`/`role` value (bounded). `at`: where `value` was cut
 * from `buf` (a match of the fast path), so that the kept string is a copy that does not keep the
 * line's head alive.
 */
function intern(value: string, buf?: Buffer, at = 0): string {
  const known = interned.get(value);
  if (known !== undefined) return known;
  const kept = buf === undefined ? value : own(value, buf, at);
  if (interned.size < INTERN_LIMIT) interned.set(kept, kept);
  return kept;
}

/**
 * The id of the previous fast-scanned line, so that a `parentId` equal to it (the common case: a
 * linear chain) reuses the same string instead of keeping another.
 */
export interface PreviousId {
  id: string | undefined;
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
  let match = ENTRY_START.exec(buf.toString("latin1", start, Math.min(end, start + HEAD_BYTES)));
  if (match === null && end - start > HEAD_BYTES) {
    match = ENTRY_START.exec(buf.toString("latin1", start, Math.min(end, start + LONG_HEAD_BYTES)));
  }
  if (match === null) return undefined;
  const type = intern(match[1] as string, buf, start + TYPE_OFFSET);
  let role: string | undefined;
  if (type === "message") {
    const found = match[4];
    if (found === undefined) return undefined;
    // The match ends with the role and its closing quote.
    role = intern(found, buf, start + match[0].length - 1 - found.length);
  }
  const idStart = start + ID_OFFSET + type.length;
  const id = own(match[2] as string, buf, idStart);
  let parentId: string | null = null;
  const parent = match[3];
  if (parent !== undefined) {
    parentId =
      previous?.id === parent ? previous.id : own(parent, buf, idStart + id.length + '","parentId":"'.length);
  }
  if (previous !== undefined) previous.id = id;
  return { id, parentId, type, role };
}

/** `value` (cut from the line's head at byte `at` of `buf`) as a string that does not keep the head alive. */
function own(value: string, buf: Buffer, at: number): string {
  return value.length < SLICE_MIN ? value : buf.toString("latin1", at, at + value.length);
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
