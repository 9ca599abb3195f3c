#!/usr/bin/env node
/**
 * Two builds of Arbor and pi 1.6.0 side by side, in one run: what a change did, measured so that the
 * machine's drift (this VM's speed moves by ±30% within an hour) does not pass for it. Every round
 * runs each measurement in a fresh process for pi, the `--old` build and the `--new` build, one
 * after the other, so that all three see the same machine; it prints the medians.
 *
 *   git worktree add /tmp/arbor-old <commit> && (cd /tmp/arbor-old && pnpm install && pnpm build)
 *   node bench/compare-builds.mjs --old /tmp/arbor-old [--new .] [--reps 7] [--sizes 1000,10000,100000] [--real]
 *
 * Measured: `arbor inspect FILE --json` and `arbor tree FILE` at the largest size (whole process,
 * empty `$ARBOR_HOME`; pi: bench/pi-command-worker.mjs), the library's cold open + projection at
 * every size (bench/session-store-worker.mjs), and the plain-append median at the smallest size.
 * With `--real`, also the cold open + projection of each real pi session (bench/real-sessions.mjs).
 * Sessions come from `ensureBenchSession` (ARBOR_BENCH_DIR); pi from PI_ORACLE_DIR (never installed
 * here: run `pnpm bench` once first). Wall and CPU (user + system) from GNU time; the library and
 * append rows come from the worker's own timers.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { piOracleDir } from "../scripts/pi-oracle.mjs";
import { builtCliPath, ensureBenchSession, parseBenchOptions } from "./bench-options.mjs";
import { realSessionFiles, realSessionsDir } from "./real-sessions.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const { flag, option, sizes } = parseBenchOptions(process.argv.slice(2), {
  script: import.meta.url,
  flags: ["--real"],
  options: ["--new", "--old"],
});
const reps = Number(option("--reps") ?? 7);
if (option("--old") === undefined) throw new Error("--old <dir of the build to compare against> is required");
const builds = { old: resolve(option("--old")), new: resolve(option("--new") ?? join(HERE, "..")) };
const piDir = piOracleDir();
const scratch = mkdtempSync(join(tmpdir(), "arbor-compare-"));
const copy = join(scratch, "session.jsonl");

/** One `node args...` under GNU time: wall and CPU ms, and stdout. Throws on a non-zero exit. */
function timed(args, env = {}) {
  const out = join(scratch, "time.txt");
  const run = spawnSync("/usr/bin/time", ["-f", "%e %U %S", "-o", out, process.execPath, ...args], {
    env: { ...process.env, PI_ORACLE_DIR: piDir, ...env },
    maxBuffer: 1 << 30,
  });
  if (run.status !== 0) throw new Error(`node ${args.join(" ")} failed: ${run.stderr}`);
  const [wall, user, sys] = readFileSync(out, "utf8").trim().split("\n").pop().split(" ").map(Number);
  return { wall: wall * 1000, cpu: (user + sys) * 1000, stdout: run.stdout.toString() };
}

/**
 * A library measurement by bench/session-store-worker.mjs, on a fresh copy of `file` for every run:
 * the append task appends to the file it is given (pi's appends used to go into the cached session,
 * which grew by 400 lines per round: the "1000" session measured had 3,401 lines after six rounds).
 */
function worker(args, file) {
  copyFileSync(file, copy);
  for (const suffix of [".lock", ".idx"]) rmSync(copy + suffix, { force: true });
  const json = JSON.stringify({ ...args, file: copy, piDir });
  return JSON.parse(timed([join(HERE, "session-store-worker.mjs"), json]).stdout);
}

const results = new Map();
const record = (key, wall, cpu) => {
  if (!results.has(key)) results.set(key, { wall: [], cpu: [] });
  results.get(key).wall.push(wall);
  results.get(key).cpu.push(cpu);
};
const files = sizes.map((n) => ({ n, file: ensureBenchSession(n) }));
const realDir = flag("--real") ? realSessionsDir(join(HERE, "..")) : undefined;
if (flag("--real") && realDir === undefined)
  throw new Error("--real: no folder of real pi sessions (PI_SESSIONS)");
const realFiles = realDir === undefined ? [] : realSessionFiles(realDir, scratch);
const largest = files.at(-1);
const smallest = files[0];
const sides = [["pi", undefined], ...Object.entries(builds)];

for (let round = 0; round < reps; round++) {
  for (const command of ["inspect", "tree"]) {
    for (const [side, dir] of sides) {
      const key = `${command} ${largest.n} (whole process)`;
      if (dir === undefined) {
        const r = timed([join(HERE, "pi-command-worker.mjs"), command, largest.file]);
        record(`${key}|pi`, r.wall, r.cpu);
        continue;
      }
      const home = mkdtempSync(join(scratch, "home-"));
      const args = [builtCliPath(dir), command, largest.file];
      const r = timed(command === "inspect" ? [...args, "--json"] : args, { ARBOR_HOME: home });
      rmSync(home, { recursive: true, force: true });
      record(`${key}|${side}`, r.wall, r.cpu);
    }
  }
  const opened = [
    ...files.map(({ n, file }) => ({ label: String(n), file })),
    ...realFiles.map(({ name, file }) => ({ label: `real ${name}`, file })),
  ];
  for (const { label, file } of opened) {
    for (const [side, dir] of sides) {
      const r = worker(
        dir === undefined
          ? { impl: "pi", task: "open" }
          : { impl: "arbor", task: "open", cold: true, arborDist: join(dir, "packages/session-store/dist") },
        file,
      );
      record(`open + projection, cold, ${label}|${side}`, r.totalMs, r.cpuMs);
    }
  }
  for (const [side, dir] of sides) {
    const r = worker(
      dir === undefined
        ? { impl: "pi", task: "append", count: 200 }
        : { impl: "arbor", task: "append", count: 200, arborDist: join(dir, "packages/session-store/dist") },
      smallest.file,
    );
    record(`plain append ${smallest.n} (µs per entry)|${side}`, r.appendOnlyWarm.median * 1000, Number.NaN);
  }
  process.stderr.write(".");
}
process.stderr.write("\n");
rmSync(scratch, { recursive: true, force: true });

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const cell = (m) => (Number.isNaN(m.cpu) ? m.wall.toFixed(1) : `${m.wall.toFixed(0)} / ${m.cpu.toFixed(0)}`);
const rows = [...new Set([...results.keys()].map((k) => k.split("|")[0]))];
console.log(`pi / Arbor in parentheses; wall / CPU ms (medians of ${reps} rounds)`);
console.log(`old: ${builds.old}\nnew: ${builds.new}\n`);
console.log("| | pi | old | new |\n| --- | --- | --- | --- |");
for (const row of rows) {
  const m = Object.fromEntries(
    ["pi", "old", "new"].map((side) => {
      const r = results.get(`${row}|${side}`);
      return [side, { wall: median(r.wall), cpu: median(r.cpu) }];
    }),
  );
  const ratio = (side) => (m.pi.wall / m[side].wall).toFixed(2);
  console.log(
    `| ${row} | ${cell(m.pi)} | ${cell(m.old)} (${ratio("old")}×) | ${cell(m.new)} (${ratio("new")}×) |`,
  );
}
