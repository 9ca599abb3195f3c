import { type Body, get, i32, set, when } from "../../../../../scripts/wasm/wasm-body";
import {
  byteAt,
  C,
  CHUNK_END,
  CHUNK_START,
  COUNT,
  END,
  entryHeadChecks,
  FLAGS,
  HASH,
  ID_END,
  M,
  NL,
  OUT,
  OUT_END,
  PARENT_END,
  PARENT_START,
  PREV_END,
  PREV_LINE,
  PREV_START,
  plus,
  Q,
  ROLE_END,
  ROLE_START,
  START,
  TYPE_END,
  TYPE_START,
  V,
  V_NL,
  V_NUL,
} from "./entry-head-checks";
import { ENTRY_LINE, ENTRY_LINE_FLAGS } from "./entry-head-slots";

/*
 * The load scan of a chunk of session lines as one WebAssembly function: it finds each line, and
 * applies `scanEntryRecord`'s fast-path rules (see extract-entry-record.ts) to it, as compiled code
 * from the first line on (the JavaScript byte loop runs interpreted until it is optimized, and a
 * call per line cost more than the checks).
 *
 *   lines(chunkStart, chunkEnd, out, outEnd) -> the number of lines recorded
 *
 * For each line of `memory[chunkStart, chunkEnd)` that ends with a newline, in order, it writes one
 * record of `ENTRY_LINE.words` i32 at `out` (then the next at `out + ENTRY_LINE.bytes`), and stops
 * at the last newline or when the next record would pass `outEnd`; the i32 at byte 0 of the memory
 * is then where the first line not recorded starts (after the last newline when all were). The 16
 * bytes after `chunkEnd` must be readable (they are read, never used).
 *
 * A record (`ENTRY_LINE`): the line's start, its newline, its end without trailing spaces, tabs and
 * CRs, flags (`ENTRY_LINE_FLAGS`), the index (in this call) of the matched line whose id the parent
 * was compared with; and when the line matched, i.e. starts like an entry line that pi and Arbor write
 * ({"type":"..","id":"..","parentId":null|"..", and for a message ,"timestamp":"..","message":{"role":".."),
 * ends with `}` and has no NUL byte: type start and end, id end (the id starts 8 bytes after the type's
 * end), the id's FNV-1a hash, parent start (`ENTRY_LINE_PARENT_NULL` for `null`) and end, role start
 * (-1: no role) and end. Every such string is plain printable ASCII without a quote or a backslash.
 * The previous matched line is forgotten at a line that neither matched nor is blank.
 */

const put = (word: keyof typeof ENTRY_LINE, local: number): Body => [
  ...get(OUT),
  ...get(local),
  ["i32.store", ENTRY_LINE[word] * 4],
];

/** Moves NL to the next newline at or after START, noting a NUL byte on the way; else leaves `$done`. */
const findNewline: Body = [
  ...set(Q, ...get(START)),
  ["block", "$found"],
  ["loop", "$find"],
  ...when([...get(Q), ...get(CHUNK_END), "i32.ge_u"], ["br", "$done"]),
  ...set(V, ...get(Q), ["v128.load", 0]),
  ...set(
    M,
    ...get(V),
    ...get(V_NL),
    "i8x16.eq",
    ...get(V),
    ...get(V_NUL),
    "i8x16.eq",
    "v128.or",
    "i8x16.bitmask",
  ),
  ...when([...get(M), "i32.eqz"], ...set(Q, ...plus(Q, 16)), ["br", "$find"]),
  ...set(NL, ...get(Q), ...get(M), "i32.ctz", "i32.add"),
  ...when([...get(NL), ...get(CHUNK_END), "i32.ge_u"], ["br", "$done"]),
  ...when([...byteAt(NL), ...i32(0x0a), "i32.eq"], ["br", "$found"]),
  ...set(FLAGS, ...get(FLAGS), ...i32(ENTRY_LINE_FLAGS.nul), "i32.or"),
  ...set(Q, ...plus(NL, 1)),
  ["br", "$find"],
  "end",
  "end",
];

/** END moves back over the spaces, tabs and CRs before NL. */
const trimEnd: Body = [
  ...set(END, ...get(NL)),
  ["block", "$trimmed"],
  ["loop", "$trim"],
  ...when([...get(END), ...get(START), "i32.le_u"], ["br", "$trimmed"]),
  ...set(C, ...get(END), ...i32(1), "i32.sub", ["i32.load8_u", 0]),
  ...when(
    [
      ...get(C),
      ...i32(0x20),
      "i32.ne",
      ...get(C),
      ...i32(0x0d),
      "i32.ne",
      "i32.and",
      ...get(C),
      ...i32(0x09),
      "i32.ne",
      "i32.and",
    ],
    ["br", "$trimmed"],
  ),
  ...set(END, ...get(END), ...i32(1), "i32.sub"),
  ["br", "$trim"],
  "end",
  "end",
];

/** The function: 4 parameters (see the top), 20 more i32 locals, 3 v128 locals. */
export const entryHeadProgram: { params: number; locals: number; vectors: number; body: Body } = {
  params: 4,
  locals: 20,
  vectors: 3,
  body: [
    ...set(V_NL, ...i32(0x0a), "i8x16.splat"),
    ...set(V_NUL, ...i32(0), "i8x16.splat"),
    ...set(START, ...get(CHUNK_START)),
    ...set(COUNT, ...i32(0)),
    ...set(PREV_START, ...i32(-1)),
    ...set(PREV_LINE, ...i32(-1)),
    ["block", "$done"],
    ["loop", "$lines"],
    ...when([...plus(OUT, ENTRY_LINE.bytes), ...get(OUT_END), "i32.gt_u"], ["br", "$done"]),
    ...set(FLAGS, ...i32(0)),
    ...findNewline,
    ...trimEnd,
    ...put("start", START),
    ...put("newline", NL),
    ...put("end", END),
    ...when([...get(FLAGS), "i32.eqz"], ...entryHeadChecks),
    ...put("flags", FLAGS),
    ...put("previousLine", PREV_LINE),
    ...get(FLAGS),
    ...i32(ENTRY_LINE_FLAGS.matched),
    "i32.and",
    ["if", "$matched"],
    ...put("typeStart", TYPE_START),
    ...put("typeEnd", TYPE_END),
    ...put("idEnd", ID_END),
    ...put("hash", HASH),
    ...put("parentStart", PARENT_START),
    ...put("parentEnd", PARENT_END),
    ...put("roleStart", ROLE_START),
    ...put("roleEnd", ROLE_END),
    ...set(PREV_START, ...plus(TYPE_END, 8)),
    ...set(PREV_END, ...get(ID_END)),
    ...set(PREV_LINE, ...get(COUNT)),
    "else",
    // A blank line keeps the previous matched line; any other line forgets it.
    ...when(
      [...get(END), ...get(START), "i32.gt_u"],
      ...set(PREV_START, ...i32(-1)),
      ...set(PREV_LINE, ...i32(-1)),
    ),
    "end",
    ...set(OUT, ...plus(OUT, ENTRY_LINE.bytes)),
    ...set(COUNT, ...plus(COUNT, 1)),
    ...set(START, ...plus(NL, 1)),
    ["br", "$lines"],
    "end",
    "end",
    ...i32(0),
    ...get(START),
    ["i32.store", 0],
    ...get(COUNT),
  ],
};
