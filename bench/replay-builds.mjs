#!/usr/bin/env node
/**
 * `arbor replay` of two builds side by side, in one run: the whole command in fresh processes (empty
 * `$ARBOR_HOME` each), the `--old` and `--new` builds one after the other for every measurement so
 * that both see the same machine. Each policy on each session; the two builds' JSON reports must be
 * byte-identical (the script fails otherwise): a speed-up must not change what replay reports.
 *
 *   git worktree add /tmp/arbor-old <commit> && (cd /tmp/arbor-old && pnpm install && pnpm build)
 *   node bench/replay-builds.mjs --old /tmp/arbor-old [--new .] [--reps 3] [--sizes 1000,10000]
 *     [--policies pi,mask,cache-aware] [--real]
 *
 * Sessions come from `ensureBenchSession` (ARBOR_BENCH_DIR); `--real` adds the real pi sessions
 * (PI_SESSIONS). Prints medians of wall and CPU seconds (GNU time) and peak RSS, and old / new.
 * pi has no replay: there is no pi column.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { builtCliPath, ensureBenchSession, parseBenchOptions } from "./bench-options.mjs";
import { realSessionFiles, realSessionsDir } from "./real-sessions.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const { flag, option } = parseBenchOptions(process.argv.slice(2), {
  script: import.meta.url,
  flags: ["--real"],
  options: ["--new", "--old", "--policies"],
});
const reps = Number(option("--reps") ?? 3);
const sizes = (option("--sizes") ?? "1000,10000").split(",").map(Number);
const policies = (option("--policies") ?? "pi,mask,cache-aware").split(",");
if (option("--old") === undefined) throw new Error("--old <dir of the build to compare against> is required");
const builds = { old: resolve(option("--old")), new: resolve(option("--new") ?? join(HERE, "..")) };
const scratch = mkdtempSync(join(tmpdir(), "arbor-replay-bench-"));

/** One replay under GNU time: wall and CPU seconds, peak RSS (MB) and the report. */
function replay(dir, file, policy) {
  const out = join(scratch, "time.txt");
  const home = mkdtempSync(join(scratch, "home-"));
  const run = spawnSync(
    "/usr/bin/time",
    [
      "-f",
      "%e %U %S %M",
      "-o",
      out,
      process.execPath,
      builtCliPath(dir),
      "replay",
      file,
      "--policy",
      policy,
      "--json",
    ],
    { env: { ...process.env, ARBOR_HOME: home }, maxBuffer: 1 << 30 },
  );
  rmSync(home, { recursive: true, force: true });
  if (run.status !== 0) throw new Error(`${dir}: replay ${file} --policy ${policy} failed: ${run.stderr}`);
  const [wall, user, sys, rssKb] = readFileSync(out, "utf8").trim().split("\n").pop().split(" ").map(Number);
  return { wall, cpu: user + sys, rss: rssKb / 1024, report: run.stdout.toString() };
}

const sessions = sizes.map((n) => ({ label: `${n} entries`, file: ensureBenchSession(n) }));
if (flag("--real")) {
  const dir = realSessionsDir(join(HERE, ".."));
  if (dir === undefined) throw new Error("--real: no folder of real pi sessions (PI_SESSIONS)");
  for (const { name, file } of realSessionFiles(dir, scratch)) sessions.push({ label: `real ${name}`, file });
}

const rows = [];
for (const { label, file } of sessions) {
  for (const policy of policies) {
    const runs = { old: [], new: [] };
    for (let round = 0; round < reps; round++) {
      for (const side of ["old", "new"]) runs[side].push(replay(builds[side], file, policy));
      process.stderr.write(".");
    }
    const reports = new Set([...runs.old, ...runs.new].map((run) => run.report));
    if (reports.size !== 1) throw new Error(`${label} --policy ${policy}: the two builds' reports differ`);
    rows.push({ label, policy, old: runs.old, new: runs.new });
  }
}
process.stderr.write("\n");
rmSync(scratch, { recursive: true, force: true });

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const cell = (runs) =>
  `${median(runs.map((r) => r.wall)).toFixed(2)} / ${median(runs.map((r) => r.cpu)).toFixed(2)} s, ${median(runs.map((r) => r.rss)).toFixed(0)} MB`;
console.log(`arbor replay --json, medians of ${reps} fresh processes per build (wall / CPU, peak RSS)`);
console.log(`old: ${builds.old}\nnew: ${builds.new}\nreports: byte-identical between the builds\n`);
console.log("| session | policy | old | new | old / new (wall) |\n| --- | --- | --- | --- | --- |");
for (const row of rows) {
  const ratio = median(row.old.map((r) => r.wall)) / median(row.new.map((r) => r.wall));
  console.log(
    `| ${row.label} | ${row.policy} | ${cell(row.old)} | ${cell(row.new)} | ${ratio.toFixed(1)}× |`,
  );
}
