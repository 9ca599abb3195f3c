#!/usr/bin/env node
/**
 * The user-space instructions a whole command executes, counted by valgrind (`callgrind`), for pi
 * 1.6.0 and one or two builds of Arbor: a measure that does not move with the machine. Wall time on
 * these VMs drifts by ±20% between two runs of the same build, which hides a 5% change; an
 * instruction count of `node --single-threaded` (V8's compiler and garbage collector on the main
 * thread, so nothing depends on thread timing) repeats to within a few million instructions (Node's
 * start-up varies by about that much): 0.03% of `arbor tree` at 20k entries, 1% of `node -e 0`. It
 * does not see what the kernel does (page faults, reads), which weighs on wall time: use it beside
 * `pnpm bench` and `bench/compare-builds.mjs`, not instead of them. Each run is 20 to 100 times
 * slower than native.
 *
 *   node bench/instructions.mjs [--old <build>] [--new <build>] [--no-pi] [--sizes 1000,10000]
 *        [--commands inspect,tree,check,open] [--reps 1]
 *
 * Commands: `inspect`, `tree`, `check` (the CLI, whole process, empty `$ARBOR_HOME`; pi:
 * bench/pi-command-worker.mjs) and `open` (the library's cold open + projection,
 * bench/session-store-worker.mjs). `node -e 0` is counted too: what any node process costs before
 * it runs a line of its own (Node 20 spends about 40% of it starting OpenSSL). Prints a Markdown
 * table of millions of instructions, each Arbor build's ratio to pi in parentheses.
 *
 * The bin's V8 code caches (`apps/cli/dist/*.cjs.v8cache`) are made without `--single-threaded`, a
 * flag V8 counts when it checks a cache: under this count V8 refuses them and every chunk compiles
 * from its source, so the count leaves out what the caches save (~10% of `arbor inspect` on a small
 * session; to see it, train the caches with the flag: docs/wip/README.md).
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { piOracleDir } from "../scripts/pi-oracle.mjs";
import { builtCliPath, ensureBenchSession, parseBenchOptions } from "./bench-options.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));

/**
 * The instructions `node --single-threaded args...` executes in user space (callgrind's "Collected"
 * count), or throws when valgrind is missing or the command fails.
 */
export function countInstructions(args, env = {}) {
  const run = spawnSync(
    "valgrind",
    [
      "--tool=callgrind",
      // V8 writes the code it runs: valgrind must notice code that changes outside of files.
      "--smc-check=all-non-file",
      "--callgrind-out-file=/dev/null",
      process.execPath,
      "--single-threaded",
      ...args,
    ],
    { env: { ...process.env, ...env }, encoding: "utf8", maxBuffer: 1 << 30 },
  );
  if (run.error) throw new Error(`valgrind could not be started: ${run.error.message}`);
  if (run.status !== 0)
    throw new Error(`node ${args.join(" ")} under valgrind failed: ${run.stderr.slice(-2000)}`);
  const collected = /Collected : (\d+)/.exec(run.stderr);
  if (collected === null)
    throw new Error(`no instruction count in valgrind's output: ${run.stderr.slice(-500)}`);
  return Number(collected[1]);
}

function main() {
  const { flag, option, sizes } = parseBenchOptions(process.argv.slice(2), {
    script: import.meta.url,
    flags: ["--no-pi"],
    options: ["--commands", "--new", "--old"],
  });
  const chosen = option("--sizes") === undefined ? [1_000, 10_000] : sizes;
  const commands = (option("--commands") ?? "inspect,tree,check,open").split(",");
  const reps = Number(option("--reps") ?? 1);
  const builds = [["new", resolve(option("--new") ?? join(HERE, ".."))]];
  if (option("--old") !== undefined) builds.unshift(["old", resolve(option("--old"))]);
  const piDir = piOracleDir();
  const sides = flag("--no-pi") ? builds : [["pi", undefined], ...builds];
  const scratch = mkdtempSync(join(tmpdir(), "arbor-instructions-"));
  const copy = join(scratch, "session.jsonl");
  // Each row: per side, the node arguments, and the session copied fresh before every run (if any).
  const rows = [["`node -e 0`", Object.fromEntries(sides.map(([side]) => [side, { args: ["-e", "0"] }]))]];
  for (const n of chosen) {
    const file = ensureBenchSession(n);
    for (const command of commands) {
      const label = command === "open" ? `library open + projection, ${n}` : `\`${command}\`, ${n}`;
      const argsOf = {};
      for (const [side, dir] of sides) {
        if (command === "open") {
          const job =
            dir === undefined
              ? { impl: "pi", task: "open", file: copy, piDir }
              : {
                  impl: "arbor",
                  task: "open",
                  cold: true,
                  file: copy,
                  arborDist: join(dir, "packages/session-store/dist"),
                };
          argsOf[side] = { file, args: [join(HERE, "session-store-worker.mjs"), JSON.stringify(job)] };
        } else if (dir === undefined) {
          argsOf[side] = { file, args: [join(HERE, "pi-command-worker.mjs"), command, copy] };
        } else {
          const cli = [builtCliPath(dir), command, copy];
          argsOf[side] = { file, args: command === "inspect" ? [...cli, "--json"] : cli };
        }
      }
      rows.push([label, argsOf]);
    }
  }
  const counts = new Map();
  for (const [label, argsOf] of rows) {
    for (const [side] of sides) {
      const spec = argsOf[side];
      const values = [];
      for (let rep = 0; rep < reps; rep++) {
        // Every run on a fresh copy, without a sidecar index or a lock: a cold open, as a user's first.
        const home = mkdtempSync(join(scratch, "home-"));
        if (spec.file !== undefined) copyFileSync(spec.file, copy);
        values.push(
          countInstructions(spec.args, {
            ARBOR_HOME: home,
            PI_ORACLE_DIR: piDir,
          }),
        );
        rmSync(home, { recursive: true, force: true });
        process.stderr.write(".");
      }
      counts.set(`${label}|${side}`, values);
    }
  }
  process.stderr.write("\n");
  rmSync(scratch, { recursive: true, force: true });
  const millions = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] / 1e6;
    const spread = sorted.length > 1 ? ` (${((sorted.at(-1) / sorted[0] - 1) * 100).toFixed(2)}% apart)` : "";
    return { median, text: `${median.toFixed(1)}${spread}` };
  };
  console.log(
    "Millions of user-space instructions (valgrind callgrind, node --single-threaded). In parentheses: pi / Arbor, then the same ratio above what `node -e 0` executes (the command's own work).\n",
  );
  const baseline = new Map(
    sides.map(([side]) => [side, millions(counts.get(`${rows[0][0]}|${side}`)).median]),
  );
  console.log(`| | ${sides.map(([side]) => side).join(" | ")} |\n|---|${sides.map(() => "---|").join("")}`);
  for (const [label] of rows) {
    const cells = sides.map(([side]) => millions(counts.get(`${label}|${side}`)));
    const pi = sides[0][0] === "pi" ? cells[0].median : undefined;
    const piOwn = pi === undefined ? undefined : pi - (baseline.get("pi") ?? 0);
    const shown = cells.map((cell, at) => {
      if (piOwn === undefined || at === 0 || label === rows[0][0]) return cell.text;
      const own = cell.median - (baseline.get(sides[at][0]) ?? 0);
      return `${cell.text} (${(pi / cell.median).toFixed(2)}×; ${(piOwn / own).toFixed(2)}× above node)`;
    });
    console.log(`| ${label} | ${shown.join(" | ")} |`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
