/**
 * What a first touch of a fresh 4 KB page (a minor page fault) costs on this machine, measured in a
 * fresh process: it touches 256 MB of newly allocated memory one byte per page, and divides the time
 * by the page faults the kernel counted. This cost weighs heavily on the ratios of `pnpm bench`: pi
 * parses every line of a session into objects (about 290,000 faults for `inspect` at 100k entries),
 * Arbor touches far less memory (about 13,000), so a machine where faults are dear (seen here: 10.5 µs
 * on one VM, 1.5 µs on another) shows larger ratios than one where they are cheap.
 */
import { spawnSync } from "node:child_process";

const PROBE = `
const pages = (256 * 1024 * 1024) / 4096;
const before = process.resourceUsage().minorPageFault;
const start = process.hrtime.bigint();
const buf = Buffer.allocUnsafeSlow(pages * 4096);
let sum = 0;
for (let page = 0; page < pages; page++) sum += (buf[page * 4096] = page & 0xff);
const ns = Number(process.hrtime.bigint() - start);
const faults = process.resourceUsage().minorPageFault - before;
process.stdout.write(JSON.stringify({ faults, ns, sum }));
`;

/** Median µs per minor page fault over `reps` fresh processes (`undefined` if the probe fails). */
export function measurePageFaultCost(reps = 3) {
  const costs = [];
  for (let rep = 0; rep < reps; rep++) {
    const run = spawnSync(process.execPath, ["-e", PROBE], { encoding: "utf8" });
    if (run.status !== 0) return undefined;
    const { faults, ns } = JSON.parse(run.stdout);
    if (faults > 0) costs.push(ns / 1000 / faults);
  }
  costs.sort((a, b) => a - b);
  return costs.length === 0 ? undefined : costs[Math.floor(costs.length / 2)];
}
