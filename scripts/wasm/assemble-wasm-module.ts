/*
 * The repository's WebAssembly assembler, used at build time only: the CLI's JSON well-formedness
 * scanner (apps/cli/src/tree/json-scan-program.ts) and the session store's entry-head scanner
 * (packages/session-store/src/storage/internal/entry-head-program.ts) are written as instruction lists
 * and assembled by it into the base64 modules their packages ship (json-scan-wasm.ts,
 * entry-head-wasm.ts); each package's drift test re-assembles and compares. No package imports it at
 * run time, so it lives here, once, rather than in either package.
 */
/**
 * A WebAssembly instruction of {@link assembleWasmModule}'s function body: a mnemonic, or a mnemonic
 * with its immediate: a local index, a constant, a memory access's offset; for `block`, `loop` and
 * `if` a label name (`"$name"`, the block type is always empty); for `br` and `br_if` the label name
 * of an enclosing block, loop or if (the innermost of that name).
 */
export type WasmInstruction = string | readonly [string, number | string];

/** One-byte opcodes of the instructions the assembler knows (MVP names). */
const OPCODES: Readonly<Record<string, number>> = {
  unreachable: 0x00,
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  br: 0x0c,
  br_if: 0x0d,
  return: 0x0f,
  drop: 0x1a,
  select: 0x1b,
  "local.get": 0x20,
  "local.set": 0x21,
  "local.tee": 0x22,
  "i32.load": 0x28,
  "i32.load8_u": 0x2d,
  "i32.store": 0x36,
  "i32.store8": 0x3a,
  "i32.const": 0x41,
  "i32.eqz": 0x45,
  "i32.eq": 0x46,
  "i32.ne": 0x47,
  "i32.lt_u": 0x49,
  "i32.gt_u": 0x4b,
  "i32.le_u": 0x4d,
  "i32.ge_u": 0x4f,
  "i32.ctz": 0x68,
  "i32.add": 0x6a,
  "i32.sub": 0x6b,
  "i32.mul": 0x6c,
  "i32.and": 0x71,
  "i32.or": 0x72,
  "i32.xor": 0x73,
  "i32.shl": 0x74,
  "i32.shr_u": 0x76,
};

/** SIMD opcodes (after the 0xfd prefix). */
const SIMD_OPCODES: Readonly<Record<string, number>> = {
  "v128.load": 0x00,
  "i8x16.splat": 0x0f,
  "i8x16.eq": 0x23,
  "i8x16.lt_u": 0x26,
  "v128.or": 0x50,
  "i8x16.bitmask": 0x64,
};

/** Memory accesses: their natural alignment (log2), written before the offset immediate. */
const ALIGN: Readonly<Record<string, number>> = {
  "i32.load": 2,
  "i32.load8_u": 0,
  "i32.store": 2,
  "i32.store8": 0,
  "v128.load": 0,
};

function unsignedLeb(value: number): number[] {
  const bytes: number[] = [];
  let rest = value >>> 0;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (rest !== 0);
  return bytes;
}

function signedLeb(value: number): number[] {
  const bytes: number[] = [];
  let rest = value | 0;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    const done = (rest === 0 && (byte & 0x40) === 0) || (rest === -1 && (byte & 0x40) !== 0);
    bytes.push(done ? byte : byte | 0x80);
    if (done) return bytes;
  }
}

function encodeInstruction(instruction: WasmInstruction, labels: (string | undefined)[]): number[] {
  const [name, immediate] = typeof instruction === "string" ? [instruction, undefined] : instruction;
  if (name === "block" || name === "loop" || name === "if") {
    labels.push(typeof immediate === "string" ? immediate : undefined);
    return [OPCODES[name] as number, 0x40];
  }
  if (name === "end") labels.pop();
  if ((name === "br" || name === "br_if") && typeof immediate === "string") {
    const at = labels.lastIndexOf(immediate);
    if (at < 0) throw new Error(`no enclosing label ${immediate}`);
    return [OPCODES[name] as number, ...unsignedLeb(labels.length - 1 - at)];
  }
  const simd = SIMD_OPCODES[name];
  const opcode = simd === undefined ? OPCODES[name] : undefined;
  if (simd === undefined && opcode === undefined) throw new Error(`unknown wasm instruction ${name}`);
  const head = simd === undefined ? [opcode as number] : [0xfd, ...unsignedLeb(simd)];
  const align = ALIGN[name];
  if (align !== undefined) return [...head, align, ...unsignedLeb(Number(immediate ?? 0))];
  if (immediate === undefined) return head;
  if (typeof immediate === "string") throw new Error(`${name} takes a number, not ${immediate}`);
  if (name === "i32.const") return [...head, ...signedLeb(immediate)];
  return [...head, ...unsignedLeb(immediate)];
}

function encodeBody(body: readonly WasmInstruction[]): number[] {
  const labels: (string | undefined)[] = [];
  const bytes = body.flatMap((instruction) => encodeInstruction(instruction, labels));
  if (labels.length !== 0) throw new Error(`${labels.length} blocks not closed`);
  return bytes;
}

function section(id: number, content: number[]): number[] {
  return [id, ...unsignedLeb(content.length), ...content];
}

function vector(items: number[][]): number[] {
  return [...unsignedLeb(items.length), ...items.flat()];
}

function name(text: string): number[] {
  return [...unsignedLeb(text.length), ...[...text].map((char) => char.charCodeAt(0))];
}

/** One function of {@link assembleWasmModule}'s module. */
export interface WasmFunctionSpec {
  /** Its export name. */
  name: string;
  /** i32 parameters (it returns one i32). */
  params: number;
  /** i32 locals after the parameters. */
  locals: number;
  /** v128 locals after the i32 ones. */
  vectors: number;
  /** Its instructions, without the final `end`. */
  body: readonly WasmInstruction[];
}

/** A function's type: `params` i32 parameters, one i32 result. */
function functionType(params: number): number[] {
  const I32 = 0x7f;
  return [0x60, ...vector(Array.from({ length: params }, () => [I32])), 1, I32];
}

/** A function's code entry: its locals and body, sized. */
function functionCode(spec: WasmFunctionSpec): number[] {
  const I32 = 0x7f;
  const V128 = 0x7b;
  const code = [
    ...vector([unsignedLeb(spec.locals).concat(I32), unsignedLeb(spec.vectors).concat(V128)]),
    ...encodeBody(spec.body),
    0x0b,
  ];
  return [...unsignedLeb(code.length), ...code];
}

/**
 * Assembles a WebAssembly module of one exported function `name` taking `params` i32 parameters and
 * returning one i32, with `locals` more i32 locals and `vectors` v128 locals (after them), and one
 * exported memory `memory` of `pages` initial 64 KiB pages. `body` is the function's instructions
 * without the final `end`. `more`: further exported functions of the same kind, sharing the memory
 * (exported after it, in order). Pure; throws on an unknown mnemonic.
 */
export function assembleWasmModule(
  spec: WasmFunctionSpec & { pages: number; more?: readonly WasmFunctionSpec[] },
): Uint8Array<ArrayBuffer> {
  const functions = [spec, ...(spec.more ?? [])];
  const exports = functions.map((fn, index) => [...name(fn.name), 0x00, index]);
  exports.splice(1, 0, [...name("memory"), 0x02, 0]);
  const bytes = [
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector(functions.map((fn) => functionType(fn.params)))),
    ...section(3, vector(functions.map((_, index) => unsignedLeb(index)))),
    ...section(5, vector([[0x00, ...unsignedLeb(spec.pages)]])),
    ...section(7, vector(exports)),
    ...section(10, vector(functions.map(functionCode))),
  ];
  return new Uint8Array(bytes);
}
