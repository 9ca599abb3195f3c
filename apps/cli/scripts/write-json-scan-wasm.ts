/**
 * Writes apps/cli/src/tree/json-scan-wasm.ts: the JSON line scanner's WebAssembly module, assembled
 * from its program (json-scan-program.ts) by scripts/wasm/assemble-wasm-module.ts, as base64. Run from the repo
 * root after changing either: `pnpm exec tsx apps/cli/scripts/write-json-scan-wasm.ts`.
 * json-scan-wasm.test.ts fails while the file is not what this writes.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { jsonScanModuleText } from "../src/tree/json-scan-module-text";

const target = path.join(path.dirname(fileURLToPath(import.meta.url)), "../src/tree/json-scan-wasm.ts");
fs.writeFileSync(target, jsonScanModuleText());
process.stdout.write(`wrote ${target}\n`);
