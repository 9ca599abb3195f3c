import { addConst, anyOf, type Body, eqConst, get, i32, set, when } from "../../../../scripts/wasm/wasm-body";
import { jsonScanFlags } from "./json-scan-flags";
import { jsonScanMemory } from "./json-scan-memory";

/** The five parameters, then the locals. */
const [AT, TABLE, COUNT, OUT, ENDS, KEY, WORD, END, WHICH, VALUE, I, J, LENGTH, C] = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
] as const;
const KEY_BYTES = jsonScanMemory.keyBytes;

const byteAt = (local: number, offset = 0): Body => [...get(local), ["i32.load8_u", offset]];
const fail: Body = [...i32(0), "return"];
/** Moves local `local` past JSON whitespace. */
const skipSpace = (local: number): Body => [
  ["loop", "$space"],
  ...set(C, ...byteAt(local)),
  ...when(
    anyOf(eqConst(C, 0x20), eqConst(C, 0x09), eqConst(C, 0x0d), eqConst(C, 0x0a)),
    ...addConst(local, 1),
    ["br", "$space"],
  ),
  "end",
];
/** Pushes the ends-table word of the value or key at local `local`. */
const endWord = (local: number): Body => [
  ...get(ENDS),
  ...get(local),
  ...i32(2),
  "i32.shl",
  "i32.add",
  ["i32.load", 0],
];
/** Pushes the address of the result slot of key `local` (an index into the table). */
const slot = (local: number): Body => [...get(OUT), ...get(local), ...i32(2), "i32.shl", "i32.add"];
/** Pushes the address of byte `offset` of table entry `local`. */
const entry = (local: number): Body => [
  ...get(TABLE),
  ...get(local),
  ...i32(KEY_BYTES),
  "i32.mul",
  "i32.add",
];

/** WHICH = the index in the table of the key `[KEY + 1, END - 1)` (no escape in it), or -1. */
const matchKey: Body = [
  ...set(LENGTH, ...get(END), ...get(KEY), "i32.sub", ...i32(2), "i32.sub"),
  ...set(WHICH, ...i32(-1)),
  ...set(I, ...i32(0)),
  ["block", "$found"],
  ["loop", "$name"],
  ...get(I),
  ...get(COUNT),
  "i32.ge_u",
  ["br_if", "$found"],
  ...when(
    [...entry(I), ["i32.load", 0], ...get(LENGTH), "i32.eq"],
    ...set(J, ...i32(0)),
    ["block", "$differs"],
    ["loop", "$byte"],
    ...get(J),
    ...get(LENGTH),
    "i32.ge_u",
    ["br_if", "$differs"],
    ...get(KEY),
    ...get(J),
    "i32.add",
    ["i32.load8_u", 1],
    ...entry(I),
    ...get(J),
    "i32.add",
    ["i32.load8_u", 4],
    "i32.ne",
    ["br_if", "$differs"],
    ...addConst(J, 1),
    ["br", "$byte"],
    "end",
    "end",
    ...when([...get(J), ...get(LENGTH), "i32.eq"], ...set(WHICH, ...get(I)), ["br", "$found"]),
  ),
  ...addConst(I, 1),
  ["br", "$name"],
  "end",
  "end",
];

const body: Body = [
  ...when([...byteAt(AT), ...i32(0x7b), "i32.ne"], ...fail),
  ...set(I, ...i32(0)),
  ["block", "$cleared"],
  ["loop", "$clear"],
  ...get(I),
  ...get(COUNT),
  "i32.ge_u",
  ["br_if", "$cleared"],
  ...slot(I),
  ...i32(-1),
  ["i32.store", 0],
  ...addConst(I, 1),
  ["br", "$clear"],
  "end",
  "end",
  ...set(KEY, ...get(AT), ...i32(1), "i32.add"),
  ...skipSpace(KEY),
  ...when([...byteAt(KEY), ...i32(0x7d), "i32.eq"], ...i32(1), "return"),
  ["loop", "$key"],
  ...set(WORD, ...endWord(KEY)),
  // A key with an escape (the escaped flag is the sign bit): unusual.
  ...when([...get(WORD), ...i32(31), "i32.shr_u"], ...fail),
  ...set(END, ...get(WORD), ...i32(~jsonScanFlags.wide), "i32.and"),
  ...matchKey,
  ...set(VALUE, ...get(END)),
  ["loop", "$colon"],
  ...when([...byteAt(VALUE), ...i32(0x3a), "i32.ne"], ...addConst(VALUE, 1), ["br", "$colon"]),
  "end",
  ...addConst(VALUE, 1),
  ...skipSpace(VALUE),
  ...when(
    [...get(WHICH), ...i32(-1), "i32.ne"],
    // A key asked for that occurs twice: unusual (a JSON reader keeps the later value).
    ...when([...slot(WHICH), ["i32.load", 0], ...i32(-1), "i32.ne"], ...fail),
    ...slot(WHICH),
    ...get(VALUE),
    ["i32.store", 0],
  ),
  ...set(KEY, ...endWord(VALUE), ...i32(~(jsonScanFlags.escaped | jsonScanFlags.wide)), "i32.and"),
  ...skipSpace(KEY),
  ...when([...byteAt(KEY), ...i32(0x7d), "i32.eq"], ...i32(1), "return"),
  ...addConst(KEY, 1),
  ...skipSpace(KEY),
  ["br", "$key"],
  "end",
  "unreachable",
];

/**
 * The program of `JsonLineReader.fields`, for `assembleWasmModule` (a third function of the line
 * scanner's module, sharing its memory): `(at, table, count, out, ends)` looks up the `count` keys of
 * the table at `table` (16 bytes a key: its length, then its bytes) in the object at `at` of the
 * scanned line, walking its keys and skipping each value in one step through the scan's ends table
 * (the word of position `p` at `ends + 4 * p`). It writes, for each key, the position of its value or
 * -1 as an i32 at `out + 4 * index`, and returns 1; 0 (unusual: the caller reads the entry the full
 * way) when `at` is no object, a key has an escape, or a key of the table occurs twice.
 */
export const jsonFieldsProgram = {
  params: 5,
  locals: 9,
  vectors: 0,
  body: body as Readonly<Body>,
} as const;
