import { anyOf, type Body, get, i32, set, when } from "../../../../scripts/wasm/wasm-body";
import { jsonScanFlags } from "./json-scan-flags";

/** Locals: the three parameters, seven i32 locals, two v128. */
const [START, END, ENDS, P, C, DEPTH, S, M, TOP, E, V, SEEN] = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
] as const;
const ESCAPED = jsonScanFlags.escaped;
const WIDE = jsonScanFlags.wide;
/** Deepest nesting followed; deeper lines give 2. */
const MAX_DEPTH = 4096;
/** Open-bracket positions (i32 each) of the nesting stack; their kinds (1 object, 2 array) are at 0. */
const OPENS_AT = 4096;

const byteAt = (offset = 0): Body => [...get(P), ["i32.load8_u", offset]];
const advance = (count: number): Body => set(P, ...get(P), ...i32(count), "i32.add");
const fail = (code = 0): Body => [...i32(code), "return"];
const isC = (char: number): Body => [...get(C), ...i32(char), "i32.eq"];
const isDigit = (value: Body): Body => [...value, ...i32(0x30), "i32.sub", ...i32(10), "i32.lt_u"];
const isHex = (offset: number): Body =>
  anyOf(isDigit(byteAt(offset)), [
    ...byteAt(offset),
    ...i32(0x20),
    "i32.or",
    ...i32(0x61),
    "i32.sub",
    ...i32(6),
    "i32.lt_u",
  ]);
/**
 * ends[at - start] = p | E: where the value (or key) starting at local `at` ends, with a string's
 * flags (E, then cleared).
 */
const storeEnd = (at: number): Body => [
  ...get(ENDS),
  ...get(at),
  ...get(START),
  "i32.sub",
  ...i32(2),
  "i32.shl",
  "i32.add",
  ...get(P),
  ...get(E),
  "i32.or",
  ["i32.store", 0],
  ...set(E, ...i32(0)),
];
const skipSpace: Body = [
  ["loop", "$space"],
  ...set(C, ...byteAt()),
  ...when(anyOf(isC(0x20), isC(0x09), isC(0x0d), isC(0x0a)), ...advance(1), ["br", "$space"]),
  "end",
];
const digits: Body = [
  ["loop", "$digits"],
  ...when(isDigit(byteAt()), ...advance(1), ["br", "$digits"]),
  "end",
];
const splat = (char: number): Body => [...i32(char), "i8x16.splat"];

const allOf = (...conds: Body[]): Body =>
  conds.flatMap((cond, at) => (at === 0 ? cond : [...cond, "i32.and"]));

/** After a backslash at p: \uXXXX or one of " \ / b f n r t moves p past it; anything else returns 0. */
const escapeSequence: Body = [
  ...set(C, ...byteAt(1)),
  ...set(E, ...get(E), ...i32(ESCAPED), "i32.or"),
  ...when(
    isC(0x75),
    ...when(allOf(isHex(2), isHex(3), isHex(4), isHex(5)), ...advance(6), ["br", "$chars"]),
    ...fail(),
  ),
  ...when(
    anyOf(isC(0x22), isC(0x5c), isC(0x2f), isC(0x62), isC(0x66), isC(0x6e), isC(0x72), isC(0x74)),
    ...advance(2),
    ["br", "$chars"],
  ),
  ...fail(),
];

/**
 * p at an opening quote: moves p past the closing quote, or returns 0 (a bad escape, a control
 * character, the NUL after the line).
 */
const string: Body = [
  ...advance(1),
  ...splat(0),
  ["local.set", SEEN],
  ["block", "$closed"],
  ["loop", "$chars"],
  // 16 bytes at a time while none is a quote, a backslash or a control character.
  ["block", "$special"],
  ["loop", "$fast"],
  ...get(P),
  ["v128.load", 0],
  ["local.set", V],
  ...get(SEEN),
  ...get(V),
  "v128.or",
  ["local.set", SEEN],
  ...get(V),
  ...splat(0x22),
  "i8x16.eq",
  ...get(V),
  ...splat(0x5c),
  "i8x16.eq",
  "v128.or",
  ...get(V),
  ...splat(0x20),
  "i8x16.lt_u",
  "v128.or",
  "i8x16.bitmask",
  ["local.tee", M],
  ["br_if", "$special"],
  ...advance(16),
  ["br", "$fast"],
  "end",
  "end",
  ...set(P, ...get(P), ...get(M), "i32.ctz", "i32.add"),
  ...set(C, ...byteAt()),
  ...when(
    isC(0x22),
    ...advance(1),
    ...when([...get(SEEN), "i8x16.bitmask"], ...set(E, ...get(E), ...i32(WIDE), "i32.or")),
    ["br", "$closed"],
  ),
  ...when(isC(0x5c), ...escapeSequence),
  ...fail(),
  "end",
  "end",
];

/** p at a key's opening quote (after spaces): the key, its end stored, spaces, the colon; else returns 0. */
const key: Body = [
  ...skipSpace,
  ...when([...get(C), ...i32(0x22), "i32.ne"], ...fail()),
  ...set(S, ...get(P)),
  ...string,
  ...storeEnd(S),
  ...skipSpace,
  ...when([...get(C), ...i32(0x3a), "i32.ne"], ...fail()),
  ...advance(1),
];

/** Pushes the bracket at local S (kind 1 object, 2 array) or returns 2 (too deep). */
const push = (kind: number): Body => [
  ...when([...get(DEPTH), ...i32(MAX_DEPTH), "i32.ge_u"], ...fail(2)),
  ...get(DEPTH),
  ...i32(kind),
  ["i32.store8", 0],
  ...get(DEPTH),
  ...i32(2),
  "i32.shl",
  ...get(S),
  ["i32.store", OPENS_AT],
  ...set(DEPTH, ...get(DEPTH), ...i32(1), "i32.add"),
];

const number: Body = [
  ...when(isC(0x2d), ...advance(1), ...set(C, ...byteAt())),
  ...get(C),
  ...i32(0x30),
  "i32.eq",
  ["if", "$zero"],
  ...advance(1),
  "else",
  ...when([...get(C), ...i32(0x31), "i32.sub", ...i32(9), "i32.ge_u"], ...fail()),
  ...digits,
  "end",
  ...when(
    [...byteAt(), ...i32(0x2e), "i32.eq"],
    ...advance(1),
    ...when([...isDigit(byteAt()), "i32.eqz"], ...fail()),
    ...digits,
  ),
  ...when(
    [...byteAt(), ...i32(0x20), "i32.or", ...i32(0x65), "i32.eq"],
    ...advance(1),
    ...set(C, ...byteAt()),
    ...when(anyOf(isC(0x2b), isC(0x2d)), ...advance(1)),
    ...when([...isDigit(byteAt()), "i32.eqz"], ...fail()),
    ...digits,
  ),
];

/** The literal `word` (its first byte at p) as one 4-byte little-endian load at `offset`. */
const literal = (offset: number, word: number, length: number): Body => [
  ...when([...get(P), ["i32.load", offset], ...i32(word), "i32.ne"], ...fail()),
  ...advance(length),
  ["br", "$parsed"],
];

const body: Body = [
  ...set(P, ...get(START)),
  ...set(DEPTH, ...i32(0)),
  ...set(E, ...i32(0)),
  ["loop", "$value"],
  ...skipSpace,
  ...set(S, ...get(P)),
  ["block", "$parsed"],
  ...when(isC(0x22), ...string, ["br", "$parsed"]),
  ...when(
    isC(0x7b),
    ...advance(1),
    ...skipSpace,
    ...when(isC(0x7d), ...advance(1), ["br", "$parsed"]),
    ...push(1),
    ...key,
    ["br", "$value"],
  ),
  ...when(
    isC(0x5b),
    ...advance(1),
    ...skipSpace,
    ...when(isC(0x5d), ...advance(1), ["br", "$parsed"]),
    ...push(2),
    ["br", "$value"],
  ),
  ...when(isC(0x74), ...literal(0, 0x65757274, 4)),
  ...when(isC(0x6e), ...literal(0, 0x6c6c756e, 4)),
  ...when(isC(0x66), ...literal(1, 0x65736c61, 5)),
  ...when([...anyOf(isC(0x2d), isDigit(get(C))), "i32.eqz"], ...fail()),
  ...number,
  "end",
  ...storeEnd(S),
  ["loop", "$after"],
  ...skipSpace,
  ...when([...get(DEPTH), "i32.eqz"], ...get(P), ...get(END), "i32.eq", "return"),
  ...set(TOP, ...get(DEPTH), ...i32(1), "i32.sub", ["i32.load8_u", 0]),
  ...when(isC(0x2c), ...advance(1), ...when([...get(TOP), ...i32(1), "i32.eq"], ...key), ["br", "$value"]),
  ...when(
    [...get(C), ...i32(0x7d), ...i32(0x5d), ...get(TOP), ...i32(1), "i32.eq", "select", "i32.ne"],
    ...fail(),
  ),
  ...advance(1),
  ...set(DEPTH, ...get(DEPTH), ...i32(1), "i32.sub"),
  ...set(S, ...get(DEPTH), ...i32(2), "i32.shl", ["i32.load", OPENS_AT]),
  ...storeEnd(S),
  ["br", "$after"],
  "end",
  "end",
  "unreachable",
];

/**
 * The program of `JsonLineScanner`, for `assembleWasmModule`: a function `(start, end, ends)` that
 * checks that bytes `[start, end)` of its memory are one well-formed JSON value with JSON whitespace
 * around it (the byte at `end` must be 0, and 16 bytes after it must be readable), returning 1, else 0,
 * or 2 when nesting goes deeper than `maxDepth`. For each value and object key it stores, as an i32 at
 * `ends + 4 * (value's offset - start)`, where the value ends (exclusive), or-ed for strings with
 * `jsonScanFlags`. Uses memory
 * `[0, 20480)` for its nesting stack: lines must lie above it.
 */
export const jsonScanProgram = {
  params: 3,
  locals: 7,
  vectors: 2,
  body: body as Readonly<Body>,
  maxDepth: MAX_DEPTH,
} as const;
