#!/usr/bin/env node
/**
 * Runs every `bench/*.bench.mjs` in turn (what `pnpm bench` calls after building), passing the
 * command-line arguments through: `pnpm bench -- --huge`. Exits non-zero if one fails.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const dir = dirname(fileURLToPath(import.meta.url));
const only = process.env.BENCH;
let failed = 0;
for (const name of readdirSync(dir)
  .filter((n) => n.endsWith(".bench.mjs"))
  .sort()) {
  if (only && !name.startsWith(only)) continue;
  console.log(`\n=== ${name} ===`);
  const r = spawnSync(
    process.execPath,
    [join(dir, name), ...process.argv.slice(2).filter((a) => a !== "--")],
    { stdio: "inherit" },
  );
  if (r.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
