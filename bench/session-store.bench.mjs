#!/usr/bin/env node
/**
 * Session store benchmark: Arbor (@arbor/session-store, built dist) against pi 1.6.0 on the same
 * generated sessions, in the same run, each measurement in a fresh child process.
 *
 *   pnpm --filter @arbor/session-store... build && node bench/session-store.bench.mjs   # 1k / 10k / 100k entries
 *   (`pnpm bench` runs the unified Arbor-vs-pi benchmark, bench/run.mjs, which reuses this file's worker)
 *   node bench/session-store.bench.mjs --huge    # adds 1M entries (~1.9 GB per file; needs ~6 GB of disk)
 *   node bench/session-store.bench.mjs --sizes 1000,10000 --reps 3 --no-write
 *
 * Environment: PI_ORACLE_DIR (default /tmp/pi-oracle; pi is installed there with npm if missing),
 * ARBOR_BENCH_DIR (default /tmp/arbor-bench; generated sessions are cached there).
 * Writes docs/benchmarks-session-store.md (table + raw JSON) unless --no-write.
 */
import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { cpus, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensurePiOracle, PI_VERSION, piOracleDir } from "../scripts/pi-oracle.mjs";
import { BENCH_WORK_DIR, ensureBenchSession, parseBenchOptions } from "./bench-options.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const WORKER = join(ROOT, "bench", "session-store-worker.mjs");
const ARBOR_DIST = join(ROOT, "packages", "session-store", "dist");
const PI_DIR = piOracleDir();
const WORK_DIR = BENCH_WORK_DIR;

const {
  args: argv,
  flag,
  sizes,
  repsFor,
  appendCountFor,
} = parseBenchOptions(process.argv.slice(2), {
  script: import.meta.url,
  flags: ["--no-write", "--report-only"],
  options: [],
});
const GROWTH = 10;

function ensureSession(n) {
  return ensureBenchSession(n, (file, bytes, seconds) =>
    console.log(`generated ${file} (${(bytes / 1e6).toFixed(1)} MB) in ${seconds.toFixed(1)} s`),
  );
}

function runWorker(args) {
  const r = spawnSync(
    process.execPath,
    [WORKER, JSON.stringify({ piDir: PI_DIR, arborDist: ARBOR_DIST, ...args })],
    {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const line = r.stdout.trim().split("\n").pop();
  if (r.status !== 0 || !line)
    throw new Error(`worker failed (${args.impl} ${args.task} ${args.file}): ${r.stderr}`);
  return JSON.parse(line);
}

/** A scratch copy of `file` (so appends never touch the cached session). */
function scratchCopy(file, tag) {
  const copy = join(WORK_DIR, `scratch-${tag}.jsonl`);
  for (const suffix of ["", ".idx", ".lock"]) rmSync(copy + suffix, { force: true });
  copyFileSync(file, copy);
  return copy;
}

function cleanup(copy) {
  for (const suffix of ["", ".idx", ".lock"]) rmSync(copy + suffix, { force: true });
}

/** Grows a copy by GROWTH entries appended the way pi appends (one appendFileSync per line). */
function grow(copy) {
  const size = statSync(copy).size;
  const fd = openSync(copy, "r");
  const tail = Buffer.alloc(Math.min(size, 256 * 1024));
  readSync(fd, tail, 0, tail.length, size - tail.length);
  closeSync(fd);
  const lines = tail.toString("utf8").trimEnd().split("\n");
  let parentId = JSON.parse(lines[lines.length - 1]).id;
  for (let i = 0; i < GROWTH; i++) {
    const id = `9${String(i).padStart(7, "0")}`;
    const message =
      i % 2 === 0
        ? { role: "user", content: `grown entry ${i}`, timestamp: 1_750_000_000_000 + i }
        : {
            role: "assistant",
            content: [{ type: "text", text: `answer ${i}` }],
            api: "anthropic-messages",
            provider: "anthropic",
            model: "m",
            usage: {
              input: 1,
              output: 1,
              cacheRead: 0,
              cacheWrite: 0,
              totalTokens: 2,
              cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
            },
            stopReason: "stop",
            timestamp: 1_750_000_000_000 + i,
          };
    appendFileSync(
      copy,
      `${JSON.stringify({ type: "message", id, parentId, timestamp: new Date(1_750_000_000_000 + i).toISOString(), message })}\n`,
    );
    parentId = id;
  }
}

const stat = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const median =
    sorted.length % 2
      ? sorted[(sorted.length - 1) / 2]
      : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], values };
};

function measure(n) {
  const file = ensureSession(n);
  const reps = repsFor(n);
  const count = appendCountFor(n);
  const out = { entries: n, fileMb: statSync(file).size / 1e6, reps, appendCount: count, runs: {} };
  const record = (key, result) => {
    out.runs[key] ??= [];
    out.runs[key].push(result);
  };
  for (let rep = 0; rep < reps; rep++) {
    // Cold open + projection: Arbor without a sidecar index (first open ever).
    record("pi.open", runWorker({ impl: "pi", task: "open", file }));
    record("arbor.open.cold", runWorker({ impl: "arbor", task: "open", file, cold: true }));
    // Warm: Arbor with its sidecar index (any later open of an unchanged session).
    const warm = scratchCopy(file, "warm");
    runWorker({ impl: "arbor", task: "open", file: warm }); // writes the index on close
    record("arbor.open.warm", runWorker({ impl: "arbor", task: "open", file: warm }));
    cleanup(warm);
    // Reopen after growth: indexed, then GROWTH entries appended pi-style, then reopened.
    const grown = scratchCopy(file, "grown");
    runWorker({ impl: "arbor", task: "open", file: grown });
    grow(grown);
    record("arbor.reopen", runWorker({ impl: "arbor", task: "reopen", file: grown }));
    record("pi.reopen", runWorker({ impl: "pi", task: "reopen", file: grown }));
    cleanup(grown);
    // Append + projection refresh per entry, then plain appends.
    for (const impl of ["pi", "arbor"]) {
      const copy = scratchCopy(file, `append-${impl}`);
      record(`${impl}.append`, runWorker({ impl, task: "append", file: copy, count }));
      cleanup(copy);
    }
    process.stdout.write(".");
  }
  process.stdout.write("\n");
  return out;
}

const fmt = (v) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v >= 1 ? v.toFixed(2) : v.toFixed(3));
const cell = (s) => `${fmt(s.median)} (${fmt(s.min)}–${fmt(s.max)})`;

function rows(result) {
  const pick = (key, f) => stat(result.runs[key].map(f));
  const total = (r) => r.totalMs;
  const rss = (r) => r.maxRssMb;
  const piOpen = pick("pi.open", total);
  const r = [];
  const add = (metric, pi, arbor, unit = "ms") =>
    r.push({ metric, unit, pi, arbor, ratio: pi.median / arbor.median });
  add("open + projection, cold (no index)", piOpen, pick("arbor.open.cold", total));
  add(
    "  same, CPU time (user + sys)",
    pick("pi.open", (x) => x.cpuMs),
    pick("arbor.open.cold", (x) => x.cpuMs),
  );
  add("open + projection, warm (sidecar index)", piOpen, pick("arbor.open.warm", total));
  add(`reopen after +${GROWTH} entries`, pick("pi.reopen", total), pick("arbor.reopen", total));
  add(
    "append + projection refresh, per entry (median)",
    pick("pi.append", (x) => x.appendRefresh.median),
    pick("arbor.append", (x) => x.appendRefresh.median),
  );
  add(
    "append + projection refresh, per entry (mean)",
    pick("pi.append", (x) => x.appendRefresh.mean),
    pick("arbor.append", (x) => x.appendRefresh.mean),
  );
  add(
    "append only, per entry (median), after the same heap warm-up",
    pick("pi.append", (x) => x.appendOnlyWarm.median),
    pick("arbor.append", (x) => x.appendOnlyWarm.median),
  );
  add(
    "append only, per entry (median), first appends of the process",
    pick("pi.append", (x) => x.appendOnly.median),
    pick("arbor.append", (x) => x.appendOnly.median),
  );
  add("peak RSS, open + projection (MB)", pick("pi.open", rss), pick("arbor.open.cold", rss), "MB");
  add(
    "heap after open + projection (MB)",
    pick("pi.open", (x) => x.heapAfterMb),
    pick("arbor.open.cold", (x) => x.heapAfterMb),
    "MB",
  );
  const scanned = pick("arbor.reopen", (x) => x.stats?.bytesScanned ?? Number.NaN);
  return { rows: r, reopenBytesScanned: scanned.median };
}

function markdown(results, meta) {
  const lines = [
    "# Session store benchmark: Arbor vs pi 1.6.0",
    "",
    `Generated by ${meta.command ?? "`node bench/session-store.bench.mjs`"} on ${meta.date}.`,
    `Machine: ${meta.cpus} × ${meta.cpu}, ${meta.memGb} GB RAM, Node ${meta.node}. Every cell is the median (min–max) of`,
    "fresh child processes; pi and Arbor run interleaved on the same files (wall-clock times unless noted;",
    "the CPU-time row is less sensitive to other load on the machine). Sessions come from",
    "`bench/generate-session.mjs --seed 1` (pi v3 format, ~1.9 KB per entry). pi: `SessionManager.open` +",
    "`buildSessionProjection()`; Arbor: `openSessionStore` + `getProjection()` (default options: batched",
    "durability; the sidecar index `<file>.idx`, opted in, where a row says so). Ratio = pi / Arbor (higher is better for Arbor).",
    "",
  ];
  for (const result of results) {
    const { rows: r, reopenBytesScanned } = rows(result);
    lines.push(
      `## ${result.entries.toLocaleString("en-US")} entries (${result.fileMb.toFixed(1)} MB, ${result.reps} runs, ${result.appendCount} appends per run)`,
      "",
    );
    if (result.date && result.date !== meta.date) {
      lines.push(
        `Measured by another run (${result.date}) and kept: this run did not include this size.`,
        "",
      );
    }
    lines.push("| metric | pi 1.6.0 | Arbor | pi / Arbor |", "|---|---|---|---|");
    for (const row of r)
      lines.push(`| ${row.metric} | ${cell(row.pi)} | ${cell(row.arbor)} | ${row.ratio.toFixed(1)}× |`);
    lines.push(
      "",
      `Arbor's reopen after growth scanned ${reopenBytesScanned} bytes (only the appended entries).`,
      "",
    );
  }
  lines.push("## Raw results", "", "```json", JSON.stringify({ meta, results }, null, 1), "```", "");
  return lines.join("\n");
}

/** Results of sizes measured by an earlier run, from the raw JSON of the existing report (kept when not re-run). */
function previousResults(target) {
  if (!existsSync(target)) return [];
  const text = readFileSync(target, "utf8");
  const start = text.indexOf("```json\n");
  const end = text.indexOf("\n```", start + 8);
  if (start < 0 || end < 0) return [];
  try {
    const raw = JSON.parse(text.slice(start + 8, end));
    return (raw.results ?? []).map((r) => ({ ...r, date: r.date ?? raw.meta?.date }));
  } catch {
    return [];
  }
}

function main() {
  if (flag("--report-only")) {
    // Re-renders the report from the raw results it holds (after changing the layout).
    const target = join(ROOT, "docs", "benchmarks-session-store.md");
    const text = readFileSync(target, "utf8");
    const raw = JSON.parse(
      text.slice(text.indexOf("```json\n") + 8, text.indexOf("\n```", text.indexOf("```json\n"))),
    );
    const results = previousResults(target);
    writeFileSync(target, markdown(results, raw.meta));
    return;
  }
  if (!existsSync(join(ARBOR_DIST, "index.js")))
    throw new Error("build @arbor/session-store first: pnpm --filter @arbor/session-store... build");
  ensurePiOracle(PI_DIR);
  mkdirSync(WORK_DIR, { recursive: true });
  const meta = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? "unknown",
    memGb: Math.round(totalmem() / 1e9),
    piVersion: PI_VERSION,
    command: `\`node bench/session-store.bench.mjs${argv.length ? ` ${argv.join(" ")}` : ""}\``,
  };
  const results = [];
  for (const n of sizes) {
    console.log(`\n${n.toLocaleString("en-US")} entries`);
    const result = measure(n);
    results.push(result);
    const { rows: r } = rows(result);
    console.table(
      Object.fromEntries(
        r.map((row) => [
          row.metric,
          { pi: cell(row.pi), arbor: cell(row.arbor), "pi/arbor": `${row.ratio.toFixed(1)}x` },
        ]),
      ),
    );
  }
  if (!flag("--no-write")) {
    const target = join(ROOT, "docs", "benchmarks-session-store.md");
    mkdirSync(dirname(target), { recursive: true });
    for (const result of results) result.date = meta.date;
    const merged = [...previousResults(target).filter((old) => !sizes.includes(old.entries)), ...results];
    merged.sort((a, b) => a.entries - b.entries);
    writeFileSync(target, markdown(merged, meta));
    console.log(`\nwrote ${target}`);
  }
}

main();
