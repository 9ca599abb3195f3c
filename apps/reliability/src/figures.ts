import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Records the figures of one fault-injection test (trials, faults, inputs, entries lost) as
 * `<RELIABILITY_FIGURES_DIR>/<name>.json` when that variable is set, so that
 * `pnpm --filter @arbor/reliability report` can put them into docs/reliability.md. Does nothing
 * otherwise. Overwrites an earlier file of the same name.
 */
export function recordFigures(name: string, figures: Record<string, unknown>): void {
  const dir = process.env.RELIABILITY_FIGURES_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify({ name, ...figures }, null, 2)}\n`);
}
