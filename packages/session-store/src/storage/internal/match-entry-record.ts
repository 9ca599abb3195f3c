import type { StoredEntryRecord } from "../session-storage";

/*
 * The fast path of `scanEntryRecord` (same rules, same results) as one regular expression over the
 * line's first bytes decoded as latin1 (one character per byte, so string offsets are byte offsets).
 * The regular expression engine compiles to machine code at once, where the byte loop of
 * `scanEntryRecord` runs interpreted for the first thousand or so lines of a process: on a small
 * session that cold start was most of the open time. On a large one the optimized byte loop, which
 * allocates nothing per line, is the faster of the two; the load scan picks by file size.
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
const PARENT_OFFSET = '","parentId":"'.length;
/** V8 keeps a substring of at least this many characters as a view of its parent string. */
const SLICE_MIN = 13;

const interned = new Map<string, string>();
const INTERN_LIMIT = 4096;

/** One shared string per distinct `type`/`role` value (bounded), copied out of the line's head. */
function intern(value: string, buf: Buffer, at: number): string {
  const known = interned.get(value);
  if (known !== undefined) return known;
  const kept = own(value, buf, at);
  if (interned.size < INTERN_LIMIT) interned.set(kept, kept);
  return kept;
}

/** `value` (cut from the line's head at byte `at` of `buf`) as a string that does not keep the head alive. */
function own(value: string, buf: Buffer, at: number): string {
  return value.length < SLICE_MIN ? value : buf.toString("latin1", at, at + value.length);
}

/**
 * The record of an entry line by the fast path, like `scanEntryRecord`: `end` is exclusive and
 * excludes trailing whitespace; `undefined` when the line does not start the way pi and Arbor write
 * entries (the caller then parses it). A returned record equals `recordFromEntry(JSON.parse(line))`
 * for lines that parse (duplicate top-level keys aside). `previous` holds the id of the last line
 * matched, so that a chain's `parentId` shares that string.
 */
export function matchEntryRecord(
  buf: Buffer,
  start: number,
  end: number,
  previous?: { id: string | undefined },
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
  const parent = match[3];
  const parentId =
    parent === undefined
      ? null
      : previous?.id === parent
        ? previous.id
        : own(parent, buf, idStart + id.length + PARENT_OFFSET);
  if (previous !== undefined) previous.id = id;
  return { id, parentId, type, role };
}
