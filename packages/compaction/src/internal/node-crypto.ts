import { createRequire } from "node:module";

let loaded: typeof import("node:crypto") | undefined;

/**
 * `node:crypto`, loaded on first call and kept: importing it costs a few milliseconds of start-up,
 * which the commands that never hash nor draw random bytes (most read-only ones) do not pay.
 */
export function nodeCrypto(): typeof import("node:crypto") {
  loaded ??= createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
  return loaded;
}
