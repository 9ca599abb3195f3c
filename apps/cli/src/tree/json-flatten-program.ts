import { addConst, anyOf, type Body, eqConst, get, i32, set, when } from "../../../../scripts/wasm/wasm-body";
import { jsonScanMemory } from "./json-scan-memory";

/** The six parameters, then the locals. */
const [P, TO, WIDTH, LENGTH, SPACE, O, C, CODE, KIND, WIDE, SIZE] = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
] as const;

const STATE_AT = jsonScanMemory.flatState;
const REGIONS = jsonScanMemory.flatRegions;
/**
 * Widest text made in a region: 3 bytes per code unit for `width + 1` units, a space and a last 4-byte
 * character fit in `jsonScanMemory.regionBytes`.
 */
const MAX_WIDTH = 6000;

const byteAt = (offset = 0): Body => [...get(P), ["i32.load8_u", offset]];
const add = addConst;
const is = eqConst;
/** `local - low <= high - low` (unsigned): `local` in `[low, high]`. */
const within = (local: number, low: number, high: number): Body => [
  ...get(local),
  ...i32(low),
  "i32.sub",
  ...i32(high - low),
  "i32.le_u",
];
const fail: Body = [...i32(0), "return"];
/** Fails unless the byte at `P + offset` is a UTF-8 continuation byte. */
const continuation = (offset: number): Body =>
  when([...byteAt(offset), ...i32(0xc0), "i32.and", ...i32(0x80), "i32.ne"], ...fail);
/** The low six bits of the byte at `P + offset`, shifted left by `shift`. */
const payload = (offset: number, shift: number): Body => [
  ...byteAt(offset),
  ...i32(0x3f),
  "i32.and",
  ...(shift === 0 ? [] : [...i32(shift), "i32.shl"]),
];
/** The value of the hex digit at `P + offset` (the scanner checked it is one): low nibble, +9 for a letter. */
const hexDigit = (offset: number): Body => [
  ...byteAt(offset),
  ...i32(0x0f),
  "i32.and",
  ...byteAt(offset),
  ...i32(6),
  "i32.shr_u",
  ...i32(9),
  "i32.mul",
  "i32.add",
];
/** Writes the byte `value` pushes at `O` and moves `O` on. */
const put = (...value: Body): Body => [...get(O), ...value, ["i32.store8", 0], ...add(O, 1)];
/** The space due before the next character, written when text came before it. */
const spaceBefore: Body = [
  ...when(
    [...get(SPACE), ...get(LENGTH), ...i32(0), "i32.ne", "i32.and"],
    ...put(...i32(0x20)),
    ...add(LENGTH, 1),
  ),
  ...set(SPACE, ...i32(0)),
];
/** KIND = `flatCharacterKind(CODE)` (see flat-character-kind.ts, which this mirrors). */
const classify: Body = [
  ["block", "$kind"],
  ...set(KIND, ...i32(1)),
  ...when(
    [...get(CODE), ...i32(0x20), "i32.le_u"],
    ...when([...anyOf(is(CODE, 0x20), is(CODE, 0x09), is(CODE, 0x0a)), "i32.eqz"], ...set(KIND, ...i32(2))),
    ["br", "$kind"],
  ),
  ...set(KIND, ...i32(0)),
  ...when([...get(CODE), ...i32(0x7f), "i32.lt_u"], ["br", "$kind"]),
  ...set(KIND, ...i32(2)),
  ...when([...get(CODE), ...i32(0x9f), "i32.le_u"], ["br", "$kind"]),
  ...set(KIND, ...i32(1)),
  ...when(
    anyOf(
      is(CODE, 0xa0),
      is(CODE, 0x1680),
      within(CODE, 0x2000, 0x200a),
      is(CODE, 0x2028),
      is(CODE, 0x2029),
      is(CODE, 0x202f),
      is(CODE, 0x205f),
      is(CODE, 0x3000),
      is(CODE, 0xfeff),
    ),
    ["br", "$kind"],
  ),
  ...set(KIND, ...i32(2)),
  ...when(anyOf(within(CODE, 0x202a, 0x202e), within(CODE, 0x2066, 0x2069)), ["br", "$kind"]),
  ...set(KIND, ...i32(0)),
  "end",
];

/**
 * After `classify`: a control character fails; whitespace makes a space due (P moves on by SIZE);
 * else the SIZE bytes at P are written after the space due, one more code unit.
 */
const keepOrCollapse: Body = [
  ...when(is(KIND, 2), ...fail),
  ...when(is(KIND, 1), ...set(SPACE, ...i32(1)), ...set(P, ...get(P), ...get(SIZE), "i32.add"), [
    "br",
    "$next",
  ]),
  ...spaceBefore,
  ["loop", "$copy"],
  ...put(...byteAt()),
  ...add(P, 1),
  ...set(SIZE, ...get(SIZE), ...i32(1), "i32.sub"),
  ...when(get(SIZE), ["br", "$copy"]),
  "end",
  ...add(LENGTH, 1),
  ...set(WIDE, ...i32(1)),
  ["br", "$next"],
];

/** Writes CODE (below U+D800 or above U+DFFF, at most U+FFFF) as UTF-8 after the space due. */
const putCode: Body = [
  ...spaceBefore,
  ...when([...get(CODE), ...i32(0x80), "i32.lt_u"], ...put(...get(CODE)), ...add(LENGTH, 1), ["br", "$next"]),
  ...set(WIDE, ...i32(1)),
  ...when(
    [...get(CODE), ...i32(0x800), "i32.lt_u"],
    ...put(...get(CODE), ...i32(6), "i32.shr_u", ...i32(0xc0), "i32.or"),
    ...put(...get(CODE), ...i32(0x3f), "i32.and", ...i32(0x80), "i32.or"),
    ...add(LENGTH, 1),
    ["br", "$next"],
  ),
  ...put(...get(CODE), ...i32(12), "i32.shr_u", ...i32(0xe0), "i32.or"),
  ...put(...get(CODE), ...i32(6), "i32.shr_u", ...i32(0x3f), "i32.and", ...i32(0x80), "i32.or"),
  ...put(...get(CODE), ...i32(0x3f), "i32.and", ...i32(0x80), "i32.or"),
  ...add(LENGTH, 1),
  ["br", "$next"],
];

/** A backslash at P: the escape it starts (the scanner checked it is valid). */
const escapeSequence: Body = [
  ...set(C, ...byteAt(1)),
  ...when(anyOf(is(C, 0x6e), is(C, 0x74)), ...set(SPACE, ...i32(1)), ...add(P, 2), ["br", "$next"]),
  ...when(
    anyOf(is(C, 0x22), is(C, 0x5c), is(C, 0x2f)),
    ...spaceBefore,
    ...put(...get(C)),
    ...add(LENGTH, 1),
    ...add(P, 2),
    ["br", "$next"],
  ),
  // \b \f \r: control characters.
  ...when([...is(C, 0x75), "i32.eqz"], ...fail),
  ...set(
    CODE,
    ...hexDigit(2),
    ...i32(12),
    "i32.shl",
    ...hexDigit(3),
    ...i32(8),
    "i32.shl",
    "i32.or",
    ...hexDigit(4),
    ...i32(4),
    "i32.shl",
    "i32.or",
    ...hexDigit(5),
    "i32.or",
  ),
  ...add(P, 6),
  // A surrogate: the output, being UTF-8, cannot hold one alone.
  ...when(within(CODE, 0xd800, 0xdfff), ...fail),
  ...classify,
  ...when(is(KIND, 2), ...fail),
  ...when(is(KIND, 1), ...set(SPACE, ...i32(1)), ["br", "$next"]),
  ...putCode,
];

/** A byte above 0x7e at P: a UTF-8 sequence, checked as `FlatClip` did. */
const multiByte: Body = [
  // DEL, a continuation byte, an overlong lead, or no lead at all.
  ...when([...within(C, 0xc2, 0xf4), "i32.eqz"], ...fail),
  ...continuation(1),
  ...when(
    [...get(C), ...i32(0xe0), "i32.lt_u"],
    ...set(CODE, ...get(C), ...i32(0x1f), "i32.and", ...i32(6), "i32.shl", ...payload(1, 0), "i32.or"),
    ...set(SIZE, ...i32(2)),
    ...classify,
    ...keepOrCollapse,
  ),
  ...continuation(2),
  ...when(
    [...get(C), ...i32(0xf0), "i32.lt_u"],
    ...set(
      CODE,
      ...get(C),
      ...i32(0x0f),
      "i32.and",
      ...i32(12),
      "i32.shl",
      ...payload(1, 6),
      "i32.or",
      ...payload(2, 0),
      "i32.or",
    ),
    ...when(anyOf([...get(CODE), ...i32(0x800), "i32.lt_u"], within(CODE, 0xd800, 0xdfff)), ...fail),
    ...set(SIZE, ...i32(3)),
    ...classify,
    ...keepOrCollapse,
  ),
  ...continuation(3),
  ...set(
    CODE,
    ...get(C),
    ...i32(0x07),
    "i32.and",
    ...i32(18),
    "i32.shl",
    ...payload(1, 12),
    "i32.or",
    ...payload(2, 6),
    "i32.or",
    ...payload(3, 0),
    "i32.or",
  ),
  ...when([...within(CODE, 0x10000, 0x10ffff), "i32.eqz"], ...fail),
  // Two code units, and nothing to classify (no character above U+FFFF is a space or a control).
  ...spaceBefore,
  ...put(...byteAt(0)),
  ...put(...byteAt(1)),
  ...put(...byteAt(2)),
  ...put(...byteAt(3)),
  ...add(P, 4),
  ...add(LENGTH, 2),
  ...set(WIDE, ...i32(1)),
  ["br", "$next"],
];

const program: Body = [
  ...when([...get(WIDTH), ...i32(MAX_WIDTH), "i32.gt_u"], ...fail),
  ["block", "$done"],
  ["loop", "$next"],
  // Decided once more than WIDTH code units are written, or at the string's end.
  ...when(anyOf([...get(LENGTH), ...get(WIDTH), "i32.gt_u"], [...get(P), ...get(TO), "i32.ge_u"]), [
    "br",
    "$done",
  ]),
  ...set(C, ...byteAt()),
  // Plain ASCII (0x21-0x7e) but the backslash: kept.
  ...when(
    [...within(C, 0x21, 0x7e), ...get(C), ...i32(0x5c), "i32.ne", "i32.and"],
    ...spaceBefore,
    ...put(...get(C)),
    ...add(LENGTH, 1),
    ...add(P, 1),
    ["br", "$next"],
  ),
  ...when(is(C, 0x20), ...set(SPACE, ...i32(1)), ...add(P, 1), ["br", "$next"]),
  ...when(is(C, 0x5c), ...escapeSequence),
  ...multiByte,
  "end",
  "end",
  ...i32(STATE_AT),
  ...get(O),
  ["i32.store", 0],
  ...i32(STATE_AT),
  ...get(LENGTH),
  ["i32.store", 4],
  ...i32(STATE_AT),
  ...get(SPACE),
  ["i32.store", 8],
  ...i32(STATE_AT),
  ...get(WIDE),
  ["i32.store", 12],
  ...i32(1),
];

/**
 * The program of `JsonLineScanner.flatten`, for `assembleWasmModule` (a second function of the
 * scanner's module, sharing its memory): `(from, to, width, length, space, out)` flattens the contents
 * `[from, to)` of a well-formed JSON string (escapes valid, as the scanner checked) as `FlatClip`
 * does, appending to a text of `length` UTF-16 code units whose bytes end at `out` (in one of
 * `regions`), with a space due before the next character when `space` is 1: each whitespace run
 * collapses to one space, none is written before the first character, and it stops once the text
 * holds more than `width` code units. It leaves four i32 at `stateAt`: where the text's bytes end, its
 * code units, whether a space is due, and whether it wrote any byte above 0x7f; it returns 1. It returns 0 (and
 * leaves the state unspecified) for what the caller must do the slow way: a control character
 * (escaped or raw, C1 and bidirectional controls included), an escaped surrogate, bytes that are not
 * valid UTF-8, or a `width` above `maxWidth`.
 */
export const jsonFlattenProgram = {
  params: 6,
  locals: 5,
  vectors: 0,
  body: program as Readonly<Body>,
  regions: REGIONS,
  stateAt: STATE_AT,
  maxWidth: MAX_WIDTH,
} as const;
