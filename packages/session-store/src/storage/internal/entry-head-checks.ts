import { type Body, get, i32, set, when } from "../../../../../scripts/wasm/wasm-body";
import { ENTRY_LINE_FLAGS, ENTRY_LINE_PARENT_NULL } from "./entry-head-slots";

/*
 * The per-line part of `entryHeadProgram` (see entry-head-program.ts): `scanEntryRecord`'s fast-path
 * rules as WebAssembly instructions, with the locals and instruction builders the program shares.
 */

/** Parameters: the chunk's bytes `[CHUNK_START, CHUNK_END)`, the record area `[OUT, OUT_END)`. */
export const [CHUNK_START, CHUNK_END, OUT, OUT_END] = [0, 1, 2, 3] as const;
/** i32 locals. `START`/`END`: the current line without its newline and trailing whitespace. */
export const [START, END, P, C, TYPE_START, TYPE_END, ID_END, HASH, Q] = [
  4, 5, 6, 7, 8, 9, 10, 11, 12,
] as const;
export const [ROLE_START, ROLE_END, PARENT_START, PARENT_END, PREV_START, PREV_END] = [
  13, 14, 15, 16, 17, 18,
] as const;
export const [PREV_LINE, COUNT, FLAGS, NL, M] = [19, 20, 21, 22, 23] as const;
/** v128 locals: newlines and NULs to look for, the 16 bytes looked at. */
export const [V_NL, V_NUL, V] = [24, 25, 26] as const;

/** The line is not one the head checks accept: leave the `$head` block (the flags say no match). */
const fail: Body = [["br", "$head"]];
export const byteAt = (local: number, offset = 0): Body => [...get(local), ["i32.load8_u", offset]];
export const plus = (local: number, count: number): Body => [...get(local), ...i32(count), "i32.add"];

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

/** Sets `ENTRY_LINE_FLAGS.samePrevious` when the parent's bytes equal the previous matched line's id. */
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
    ...set(FLAGS, ...get(FLAGS), ...i32(ENTRY_LINE_FLAGS.samePrevious), "i32.or"),
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
  ...set(PARENT_START, ...i32(ENTRY_LINE_PARENT_NULL)),
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

/** The head checks of the line `[START, END)`, in a `$head` block: FLAGS gets `matched` when they pass. */
export const entryHeadChecks: Body = [
  ["block", "$head"],
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
  ...set(FLAGS, ...get(FLAGS), ...i32(ENTRY_LINE_FLAGS.matched), "i32.or"),
  "end",
];
