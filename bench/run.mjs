#!/usr/bin/env node
/**
 * `pnpm bench`: Arbor against pi 1.6.0 on the same generated sessions, in one run, every
 * measurement in a fresh process (see docs/benchmarks.md for the method). Reuses the session
 * generator and the workers of the package benchmarks:
 *   bench/generate-session.mjs, bench/session-store-worker.mjs,
 *   packages/compaction/bench/prepare-compaction.bench.mjs (--worker),
 * plus bench/tokens-worker.mjs and bench/seams-worker.mjs.
 *
 *   pnpm bench                          # builds, then 1k / 10k / 100k entries -> docs/benchmarks.{md,json}
 *   pnpm bench -- --huge                # adds 1M entries (~1.9 GB file, several GB of RAM per process)
 *   node bench/run.mjs --sizes 1000 --reps 1 --out /tmp/b --no-install   # the smoke run of the tests
 *   pnpm bench -- --sizes 1000000 --whole-process-only   # 1M entries, whole-process section only
 *
 * Options: --sizes a,b,c; --reps N (default 5 below 100k, 3 at 100k, 2 at 1M); --out <dir> (default
 * docs/); --no-install (never install pi: without it at PI_ORACLE_DIR only Arbor is measured);
 * --seams-iterations N (default 2000); --startup-reps N (start-up runs, default 11 whatever --reps
 * says); --report-only (re-render benchmarks.md from benchmarks.json);
 * --whole-process-only (only the whole-process section: `arbor inspect/tree/check` against pi in
 * fresh processes, see bench/whole-process.mjs); --no-whole-process (only the library sections);
 * --no-real (skip the real pi sessions of ../shared/pi-sessions, see bench/real-sessions.mjs).
 * Environment: PI_SESSIONS (the folder of real pi sessions), PI_ORACLE_DIR (default /tmp/pi-oracle; pi is installed there with npm unless
 * --no-install), ARBOR_BENCH_DIR (default /tmp/arbor-bench; generated sessions are cached there).
 * The other package benchmarks stay runnable on their own: `node bench/session-store.bench.mjs`,
 * `node packages/compaction/bench/prepare-compaction.bench.mjs`, `pnpm --filter @arbor/agent-loop bench`.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensurePiOracle, isPiInstalled, PI_VERSION, piOracleDir } from "../scripts/pi-oracle.mjs";
import { BENCH_WORK_DIR, ensureBenchSession, parseBenchOptions } from "./bench-options.mjs";
import { renderMarkdown, rowsOf, seamsRow } from "./bench-report.mjs";
import { measurePageFaultCost } from "./page-fault-cost.mjs";
import { measureRealSessions, realSessionFiles, realSessionsDir } from "./real-sessions.mjs";
import { measureStartup, measureWholeProcess } from "./whole-process.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const PI_DIR = piOracleDir();
const WORK_DIR = BENCH_WORK_DIR;
const SESSION_WORKER = join(ROOT, "bench", "session-store-worker.mjs");
const COMPACTION_WORKER = join(ROOT, "packages", "compaction", "bench", "prepare-compaction.bench.mjs");
const TOKENS_WORKER = join(ROOT, "bench", "tokens-worker.mjs");
const SEAMS_WORKER = join(ROOT, "bench", "seams-worker.mjs");
const ARBOR_DIST = join(ROOT, "packages", "session-store", "dist");
const CLI_PATH = join(ROOT, "apps", "cli", "dist", "main.cjs");
const PI_COMMAND_WORKER = join(ROOT, "bench", "pi-command-worker.mjs");

const {
  args: argv,
  flag,
  option,
  sizes,
  repsFor,
  appendCountFor,
} = parseBenchOptions(process.argv.slice(2), {
  script: import.meta.url,
  flags: ["--no-install", "--no-real", "--no-whole-process", "--report-only", "--whole-process-only"],
  options: ["--out", "--seams-iterations", "--startup-reps"],
});
const outDir = option("--out") ?? join(ROOT, "docs");
const seamsIterations = Number(option("--seams-iterations") ?? 2000);

/** Installs pi into the scratch folder unless told not to; returns whether pi can be measured. */
function ensurePi() {
  if (!isPiInstalled(PI_DIR) && !flag("--no-install")) ensurePiOracle(PI_DIR);
  return isPiInstalled(PI_DIR);
}

function run(script, args, nodeFlags = []) {
  const r = spawnSync(process.execPath, [...nodeFlags, script, ...args], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, PI_ORACLE_DIR: PI_DIR },
  });
  const line = r.stdout?.trim().split("\n").pop();
  if (r.status !== 0 || !line) throw new Error(`${script} ${args.join(" ")} failed: ${r.stderr}`);
  return JSON.parse(line);
}

/** Append processes per side and repetition (see measureSize). */
const APPEND_RUNS_PER_REP = 3;

const sessionWorker = (args) =>
  run(SESSION_WORKER, [JSON.stringify({ piDir: PI_DIR, arborDist: ARBOR_DIST, ...args })]);

function scratchCopy(file, tag) {
  const copy = join(WORK_DIR, `scratch-${tag}.jsonl`);
  cleanup(copy);
  copyFileSync(file, copy);
  return copy;
}

function cleanup(copy) {
  for (const suffix of ["", ".idx", ".lock"]) rmSync(copy + suffix, { force: true });
}

function measureSize(n, impls) {
  const file = ensureBenchSession(n);
  const reps = repsFor(n);
  const size = {
    entries: n,
    fileMb: statSync(file).size / 1e6,
    reps,
    appendCount: appendCountFor(n),
    runs: {},
    checks: [],
  };
  const record = (key, value) => {
    size.runs[key] ??= [];
    size.runs[key].push(value);
  };
  const library = !flag("--whole-process-only");
  for (let rep = 0; library && rep < reps; rep++) {
    const order = rep % 2 === 0 ? impls : [...impls].reverse();
    for (const impl of order) {
      record(`${impl}.open`, sessionWorker({ impl, task: "open", file, cold: true }));
      // Appends take microseconds, and a whole process now and then runs slower on a shared VM:
      // three append processes per repetition make their median steadier.
      for (let again = 0; again < APPEND_RUNS_PER_REP; again++) {
        const copy = scratchCopy(file, `append-${impl}`);
        record(
          `${impl}.append`,
          sessionWorker({ impl, task: "append", file: copy, count: size.appendCount }),
        );
        cleanup(copy);
      }
      record(
        `${impl}.compaction`,
        run(COMPACTION_WORKER, ["--worker", JSON.stringify({ impl, file })], ["--expose-gc"]),
      );
      record(`${impl}.tokens`, run(TOKENS_WORKER, [JSON.stringify({ impl, file, piDir: PI_DIR })]));
    }
    // What two guarantees pi does not give cost, measured apart: the writer lock (a read-only open
    // takes none) and an fsync per append (durability "always"; the default fsyncs once a second).
    record(
      "arbor.openReadOnly",
      sessionWorker({ impl: "arbor", task: "open", file, cold: true, readOnly: true }),
    );
    const always = scratchCopy(file, "append-always");
    record(
      "arbor.appendAlways",
      sessionWorker({
        impl: "arbor",
        task: "append",
        file: always,
        count: size.appendCount,
        durability: "always",
      }),
    );
    cleanup(always);
    const warm = scratchCopy(file, "warm");
    sessionWorker({ impl: "arbor", task: "open", file: warm }); // writes the sidecar index on close
    record("arbor.openWarm", sessionWorker({ impl: "arbor", task: "open", file: warm }));
    cleanup(warm);
    process.stdout.write(".");
  }
  process.stdout.write("\n");
  if (impls.includes("pi") && !flag("--no-whole-process")) {
    process.stdout.write("  whole process ");
    size.wholeProcess = {
      reps,
      ...measureWholeProcess({
        file,
        reps,
        cliPath: CLI_PATH,
        piWorker: PI_COMMAND_WORKER,
        piDir: PI_DIR,
        log: (text) => process.stdout.write(text),
      }),
    };
    process.stdout.write("\n");
  }
  size.branchLength = size.runs["arbor.tokens"]?.[0]?.branchLength;
  if (impls.includes("pi") && library) {
    const same = (key, pick) =>
      JSON.stringify(pick(size.runs[`pi.${key}`][0])) === JSON.stringify(pick(size.runs[`arbor.${key}`][0]));
    size.checks.push(
      same("compaction", (r) => r.summary)
        ? "prepareCompaction: pi and Arbor returned the same cut point, split-turn flag, tokensBefore and number of messages to summarize."
        : `**prepareCompaction results differ**: pi ${JSON.stringify(size.runs["pi.compaction"][0].summary)}, Arbor ${JSON.stringify(size.runs["arbor.compaction"][0].summary)}`,
      same("tokens", (r) => r.estimate.tokens)
        ? `Token estimate: both returned ${size.runs["arbor.tokens"][0].estimate.tokens.toLocaleString("en-US")} tokens.`
        : "**token estimates differ**",
      same("open", (r) => r.projectedMessages)
        ? `Projection: both projected ${size.runs["arbor.open"][0].projectedMessages.toLocaleString("en-US")} messages.`
        : "**projected message counts differ**",
    );
  }
  const exact = size.runs["arbor.tokens"]?.[0]?.exact;
  if (exact) {
    size.checks.push(
      `Exact count of the projected context: ${exact.tokens.toLocaleString("en-US")} tokens (o200k_base) against ${exact.estimatedTokens.toLocaleString("en-US")} by chars/4; loading the tokenizer took ${exact.loadMs.toFixed(0)} ms.`,
    );
  }
  return size;
}

function measureSeams(impls) {
  const reps = Number(option("--reps") ?? 5);
  const seams = { messages: 1000, iterations: seamsIterations, reps };
  for (let rep = 0; rep < reps; rep++) {
    for (const impl of rep % 2 === 0 ? impls : [...impls].reverse()) {
      seams[impl] ??= [];
      seams[impl].push(
        run(SEAMS_WORKER, [
          JSON.stringify({ impl, piDir: PI_DIR, messages: 1000, iterations: seamsIterations }),
        ]),
      );
    }
  }
  return seams;
}

function main() {
  if (flag("--report-only")) {
    // Re-renders benchmarks.md from the raw results next to it (after a change of layout).
    const result = JSON.parse(readFileSync(join(outDir, "benchmarks.json"), "utf8"));
    writeFileSync(join(outDir, "benchmarks.md"), renderMarkdown(result, "benchmarks.json"));
    return;
  }
  for (const dist of [
    ARBOR_DIST,
    join(ROOT, "packages", "compaction", "dist"),
    join(ROOT, "packages", "agent-loop", "dist"),
  ]) {
    if (!existsSync(join(dist, "index.js")))
      throw new Error(`build first (pnpm bench does): ${dist} is missing`);
  }
  if (!flag("--no-whole-process") && !existsSync(CLI_PATH))
    throw new Error(`build first (pnpm bench does): ${CLI_PATH} is missing`);
  const piAvailable = ensurePi();
  const impls = piAvailable ? ["pi", "arbor"] : ["arbor"];
  const meta = {
    date: new Date().toISOString(),
    args: argv,
    node: process.version,
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? "unknown",
    memGb: Math.round(totalmem() / 1e9),
    piVersion: PI_VERSION,
    piDir: PI_DIR,
    piAvailable,
    loadBefore: loadavg()[0],
    pageFaultUs: measurePageFaultCost(),
  };
  const result = { meta, sizes: [], seams: undefined };
  for (const n of sizes) {
    console.log(`${n.toLocaleString("en-US")} entries`);
    const size = measureSize(n, impls);
    size.date = meta.date;
    // Dated on its own: a later run that re-measures only the library keeps this section with its date.
    if (size.wholeProcess) size.wholeProcess.date = meta.date;
    size.rows = rowsOf(size);
    result.sizes.push(size);
    for (const row of size.rows)
      console.log(
        `  ${row.metric}: pi ${row.pi?.median.toFixed(3) ?? "–"} / Arbor ${row.arbor?.median.toFixed(3) ?? "–"} ${row.unit}${row.ratio ? ` (${row.ratio.toFixed(1)}×)` : ""}`,
      );
  }
  if (!flag("--whole-process-only")) {
    console.log("seams");
    result.seams = measureSeams(impls);
    result.seams.row = seamsRow(result.seams);
  }
  const realDir = realSessionsDir(ROOT);
  if (realDir !== undefined && !flag("--whole-process-only") && !flag("--no-real")) {
    console.log("real pi sessions");
    mkdirSync(WORK_DIR, { recursive: true });
    result.realSessions = measureRealSessions({
      sessions: realSessionFiles(realDir, WORK_DIR),
      reps: Number(option("--reps") ?? 5),
      impls,
      // pi migrates a version-1 file when it opens it: every run gets a fresh copy.
      openCold: (impl, file) => {
        const copy = scratchCopy(file, `real-${impl}`);
        try {
          return sessionWorker({ impl, task: "open", file: copy, cold: true });
        } finally {
          cleanup(copy);
        }
      },
    });
  }
  if (piAvailable && !flag("--no-whole-process")) {
    console.log("start-up");
    result.startup = measureStartup({
      // Its own count: a one-run 1M measurement must not leave start-up measured once.
      reps: Number(option("--startup-reps") ?? 11),
      cliPath: CLI_PATH,
      piWorker: PI_COMMAND_WORKER,
      piDir: PI_DIR,
      workDir: WORK_DIR,
    });
    result.startup.date = meta.date;
  }
  meta.loadAfter = loadavg()[0];
  mkdirSync(outDir, { recursive: true });
  // Sizes measured by an earlier run and not re-run now (say 1M) are kept, with their date.
  const jsonPath = join(outDir, "benchmarks.json");
  if (existsSync(jsonPath)) {
    const previous = JSON.parse(readFileSync(jsonPath, "utf8"));
    const kept = (previous.sizes ?? []).filter((old) => !sizes.includes(old.entries));
    for (const old of kept) {
      old.date ??= previous.meta?.date;
      if (old.wholeProcess) old.wholeProcess.date ??= old.date;
    }
    // A section this run skipped (library or whole process) keeps the earlier run's figures.
    for (const size of result.sizes) {
      const old = (previous.sizes ?? []).find((candidate) => candidate.entries === size.entries);
      if (!old) continue;
      if (Object.keys(size.runs).length === 0 && Object.keys(old.runs ?? {}).length > 0) {
        Object.assign(size, { ...old, wholeProcess: size.wholeProcess });
        size.date = old.date ?? previous.meta?.date;
      }
      if (!size.wholeProcess && old.wholeProcess) {
        size.wholeProcess = old.wholeProcess;
        size.wholeProcess.date ??= old.date ?? previous.meta?.date;
      }
    }
    result.seams ??= previous.seams;
    result.startup ??= previous.startup;
    result.realSessions ??= previous.realSessions;
    result.sizes = [...result.sizes, ...kept].sort((a, b) => a.entries - b.entries);
  }
  writeFileSync(join(outDir, "benchmarks.json"), `${JSON.stringify(result, null, 1)}\n`);
  writeFileSync(join(outDir, "benchmarks.md"), renderMarkdown(result, "benchmarks.json"));
  console.log(`wrote ${join(outDir, "benchmarks.md")} and benchmarks.json`);
}

main();
