/**
 * Writes packages/session-store/src/storage/internal/entry-head-wasm.ts: the load scan's WebAssembly
 * module, assembled from its program (entry-head-program.ts) by scripts/wasm/assemble-wasm-module.ts, as base64.
 * Run from the repo root after changing either:
 * `pnpm exec tsx packages/session-store/scripts/write-entry-head-wasm.ts`.
 * entry-head-wasm.test.ts fails while the file is not what this writes.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { entryHeadModuleText } from "../src/storage/internal/entry-head-module-text";

const target = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "../src/storage/internal/entry-head-wasm.ts",
);
fs.writeFileSync(target, entryHeadModuleText());
process.stdout.write(`wrote ${target}\n`);
