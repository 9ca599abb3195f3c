import type { WasmInstruction } from "../../../../../scripts/wasm/assemble-wasm-module";
import { HEAD_PARENT_NULL, HEAD_PARENT_PREVIOUS, HEAD_SLOTS } from "./entry-head-slots";

/*
 * `scanEntryRecord`'s fast path as a WebAssembly function, for the load scan of a large file: the
 * same rules (see extract-entry-record.ts), run as compiled code from the first line on, where the
 * JavaScript byte loop runs interpreted until it is optimized.
 *
 *   head(start, end, prevStart, prevEnd) -> 1 when `memory[start, end)` starts like an entry line
 *   that pi and Arbor write ({"type":"..","id":"..","parentId":null|"..", and for a message
 *   ,"timestamp":"..","message":{"role":".."), 0 otherwise (the caller then parses the line).
 *
 * `end` is exclusive and excludes trailing whitespace. `[prevStart, prevEnd)` are the bytes of the
 * previous line's id (`prevStart` -1: none). On 1, the i32 slots at byte 0 of the memory hold (see
 * `HEAD_SLOTS`): type start and end, id end (the id starts 8 bytes after the type's end), the id's
 * FNV-1a hash, parent start (-1: `null`; -2: the same bytes as the previous id) and end, role start
 * (-1: no role) and end. Every string is plain printable ASCII without a quote or a backslash.
 */

type Body = WasmInstruction[];

const [START, END, PREV_START, PREV_END, P, C, TYPE_START, TYPE_END, ID_END, HASH, Q] = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
] as const;
const [ROLE_START, ROLE_END, PARENT_START, PARENT_END] = [11, 12, 13, 14] as const;

const get = (local: number): Body => [["local.get", local]];
const set = (local: number, ...value: Body): Body => [...value, ["local.set", local]];
const i32 = (value: number): Body => [["i32.const", value | 0]];
const fail: Body = [...i32(0), "return"];
/** `if (cond) { then }` */
const when = (cond: Body, ...then: Body): Body => [...cond, ["if", "$when"], ...then, "end"];
const byteAt = (local: number, offset = 0): Body => [...get(local), ["i32.load8_u", offset]];
const plus = (local: number, count: number): Body => [...get(local), ...i32(count), "i32.add"];

/** Fails unless `memory[p, p + text.length)` is `text` (ASCII); then moves p past it. */
function expect(text: string): Body {
  const codes = [...text].map((char) => char.charCodeAt(0));
  const body: Body = when([...plus(P, codes.length), ...get(END), "i32.gt_u"], ...fail);
  let at = 0;
  for (; at + 4 <= codes.length; at += 4) {
    const word =
      (codes[at] as number) |
      ((codes[at + 1] as number) << 8) |
      ((codes[at + 2] as number) << 16) |
      ((codes[at + 3] as number) << 24);
    body.push(...when([...get(P), ["i32.load", at], ...i32(word), "i32.ne"], ...fail));
  }
  for (; at < codes.length; at++) {
    body.push(...when([...byteAt(P, at), ...i32(codes[at] as number), "i32.ne"], ...fail));
  }
  body.push(...set(P, ...plus(P, codes.length)));
  return body;
}

/**
 * Moves p to the closing quote of a plain string starting at p (printable ASCII, no backslash); fails
 * on anything else or at `end`. With `hash`, folds each byte into HASH (FNV-1a, as `IdIndex.hash`).
 */
function plainString(hash: boolean): Body {
  return [
    ["block", "$done"],
    ["loop", "$chars"],
    ...when([...get(P), ...get(END), "i32.ge_u"], ...fail),
    ...set(C, ...byteAt(P)),
    ...when([...get(C), ...i32(0x22), "i32.eq"], ["br", "$done"]),
    // c < 0x20 or c > 0x7e (one unsigned comparison), or a backslash
    ...when(
      [
        ...get(C),
        ...i32(0x20),
        "i32.sub",
        ...i32(0x5f),
        "i32.ge_u",
        ...get(C),
        ...i32(0x5c),
        "i32.eq",
        "i32.or",
      ],
      ...fail,
    ),
    ...(hash ? set(HASH, ...get(HASH), ...get(C), "i32.xor", ...i32(0x01000193), "i32.mul") : []),
    ...set(P, ...plus(P, 1)),
    ["br", "$chars"],
    "end",
    "end",
  ];
}

/** PARENT_START becomes -2 when the parent's bytes equal the previous id's. */
const sameAsPrevious: Body = when(
  [
    ...get(PREV_START),
    ...i32(-1),
    "i32.ne",
    ...get(PARENT_END),
    ...get(PARENT_START),
    "i32.sub",
    ...get(PREV_END),
    ...get(PREV_START),
    "i32.sub",
    "i32.eq",
    "i32.and",
  ],
  ...set(Q, ...i32(0)),
  ["block", "$differ"],
  ["loop", "$same"],
  ...when(
    [...get(Q), ...get(PARENT_END), ...get(PARENT_START), "i32.sub", "i32.eq"],
    ...set(PARENT_START, ...i32(HEAD_PARENT_PREVIOUS)),
    ["br", "$differ"],
  ),
  ...when(
    [
      ...get(PARENT_START),
      ...get(Q),
      "i32.add",
      ["i32.load8_u", 0],
      ...get(PREV_START),
      ...get(Q),
      "i32.add",
      ["i32.load8_u", 0],
      "i32.ne",
    ],
    ["br", "$differ"],
  ),
  ...set(Q, ...plus(Q, 1)),
  ["br", "$same"],
  "end",
  "end",
);

/** `null` or a plain string; then the byte after the value must be `,` or `}`. */
const parent: Body = [
  ...set(PARENT_START, ...i32(HEAD_PARENT_NULL)),
  ["block", "$parent"],
  ...when(
    [...plus(P, 4), ...get(END), "i32.le_u"],
    ...when(
      [...get(P), ["i32.load", 0], ...i32(0x6c6c756e), "i32.eq"], // "null"
      ...set(P, ...plus(P, 4)),
      ["br", "$parent"],
    ),
  ),
  ...when([...get(P), ...get(END), "i32.ge_u"], ...fail),
  ...when([...byteAt(P), ...i32(0x22), "i32.ne"], ...fail),
  ...set(P, ...plus(P, 1)),
  ...set(PARENT_START, ...get(P)),
  ...plainString(false),
  ...set(PARENT_END, ...get(P)),
  ...set(P, ...plus(P, 1)),
  ...sameAsPrevious,
  "end",
  ...when([...get(P), ...get(END), "i32.ge_u"], ...fail),
  ...set(C, ...byteAt(P)),
  ...when([...get(C), ...i32(0x2c), "i32.ne", ...get(C), ...i32(0x7d), "i32.ne", "i32.and"], ...fail),
];

/** True when the type is `message` (7 bytes). */
const isMessage: Body = [
  ...get(TYPE_END),
  ...get(TYPE_START),
  "i32.sub",
  ...i32(7),
  "i32.eq",
  ["if", "$len"],
  ...get(TYPE_START),
  ["i32.load", 0],
  ...i32(0x7373656d), // "mess"
  "i32.eq",
  ...byteAt(TYPE_START, 4),
  ...i32(0x61),
  "i32.eq",
  "i32.and",
  ...byteAt(TYPE_START, 5),
  ...i32(0x67),
  "i32.eq",
  "i32.and",
  ...byteAt(TYPE_START, 6),
  ...i32(0x65),
  "i32.eq",
  "i32.and",
  ["local.set", Q],
  "else",
  ...set(Q, ...i32(0)),
  "end",
  ...get(Q),
];

const store = (slot: number, local: number): Body => [...i32(0), ...get(local), ["i32.store", slot * 4]];

/** The function: parameters start, end, prevStart, prevEnd; 11 more i32 locals. */
export const entryHeadProgram: { params: number; locals: number; vectors: number; body: Body } = {
  params: 4,
  locals: 11,
  vectors: 0,
  body: [
    ...when([...get(END), ...get(START), "i32.sub", ...i32(2), "i32.lt_u"], ...fail),
    ...when([...get(END), ...i32(1), "i32.sub", ["i32.load8_u", 0], ...i32(0x7d), "i32.ne"], ...fail),
    ...set(P, ...get(START)),
    ...expect('{"type":"'),
    ...set(TYPE_START, ...get(P)),
    ...plainString(false),
    ...set(TYPE_END, ...get(P)),
    ...expect('","id":"'),
    ...set(HASH, ...i32(0x811c9dc5)),
    ...plainString(true),
    ...set(ID_END, ...get(P)),
    ...expect('","parentId":'),
    ...parent,
    ...set(ROLE_START, ...i32(-1)),
    ...when(
      isMessage,
      ...expect(',"timestamp":"'),
      ...plainString(false),
      ...expect('","message":{"role":"'),
      ...set(ROLE_START, ...get(P)),
      ...plainString(false),
      ...set(ROLE_END, ...get(P)),
    ),
    ...store(HEAD_SLOTS.typeStart, TYPE_START),
    ...store(HEAD_SLOTS.typeEnd, TYPE_END),
    ...store(HEAD_SLOTS.idEnd, ID_END),
    ...store(HEAD_SLOTS.hash, HASH),
    ...store(HEAD_SLOTS.parentStart, PARENT_START),
    ...store(HEAD_SLOTS.parentEnd, PARENT_END),
    ...store(HEAD_SLOTS.roleStart, ROLE_START),
    ...store(HEAD_SLOTS.roleEnd, ROLE_END),
    ...i32(1),
  ],
};
