import type { WasmInstruction } from "./assemble-wasm-module";

/*
 * Builders of instruction lists for the programs `assembleWasmModule` assembles (the CLI's JSON
 * scanner, the session store's entry-head scanner). Build time only, like the assembler. Pure.
 */

/** A list of instructions. */
export type Body = WasmInstruction[];

/** Pushes local `local`. */
export const get = (local: number): Body => [["local.get", local]];
/** Sets local `local` to what `value` pushes. */
export const set = (local: number, ...value: Body): Body => [...value, ["local.set", local]];
/** Pushes the i32 constant `value` (taken modulo 2^32, as a signed 32-bit integer). */
export const i32 = (value: number): Body => [["i32.const", value | 0]];
/** `if (cond) { then }` */
export const when = (cond: Body, ...then: Body): Body => [...cond, ["if", "$when"], ...then, "end"];
/** Pushes 1 when any of `conds` (each pushing 0 or 1) does: their `i32.or`. */
export const anyOf = (...conds: Body[]): Body =>
  conds.flatMap((cond, at) => (at === 0 ? cond : [...cond, "i32.or"]));
/** Pushes 1 when local `local` equals the constant `value`, else 0. */
export const eqConst = (local: number, value: number): Body => [...get(local), ...i32(value), "i32.eq"];
/** Adds the constant `count` to local `local`. */
export const addConst = (local: number, count: number): Body =>
  set(local, ...get(local), ...i32(count), "i32.add");
