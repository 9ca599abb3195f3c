/**
 * The whole-process section of `pnpm bench`: what a user waits for. Each measurement starts a fresh
 * `node` process, as a shell would, and times it from outside: `arbor inspect FILE --json`,
 * `arbor tree FILE`, `arbor check FILE` (the built CLI, with an empty `$ARBOR_HOME` each run, so no
 * index cache and no settings) against pi 1.6.0 doing the same work (`bench/pi-command-worker.mjs`),
 * alternating, on the same file, in the same run; plus start-up (`node -e 0`, `arbor --version`,
 * `arbor inspect` on a one-entry session). Wall time, CPU time (user + system), peak RSS and minor
 * page faults come from GNU time (`/usr/bin/time`) when it is installed; otherwise wall time only.
 */
import { spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { comparedRuns, summarize } from "./bench-report.mjs";

const GNU_TIME = "/usr/bin/time";

/**
 * One timed run of `node args...`: wall ms, CPU ms (user + sys) and peak RSS MB when known, and
 * stdout. The process writes its stdout to a file, as `arbor tree big.jsonl > tree.txt` would, read
 * once the process is over: when it went through a pipe into this process, turning 11 MB of tree
 * text into a string here took 100-170 ms that were counted as the command's (pi's worker prints a
 * line), while the command itself had exited.
 */
export function timeProcess(args, env = {}) {
  const timeOut = join(tmpdir(), `arbor-bench-time-${process.pid}.txt`);
  const stdoutFile = join(tmpdir(), `arbor-bench-stdout-${process.pid}.txt`);
  const useTime = existsSync(GNU_TIME);
  const command = useTime
    ? [GNU_TIME, ["-f", "%e %U %S %M %R", "-o", timeOut, process.execPath, ...args]]
    : [process.execPath, args];
  const out = openSync(stdoutFile, "w");
  let run;
  let wallMs;
  try {
    const started = performance.now();
    run = spawnSync(command[0], command[1], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      stdio: ["ignore", out, "pipe"],
      env: { ...process.env, ...env },
    });
    wallMs = performance.now() - started;
  } finally {
    closeSync(out);
  }
  const stdout = readFileSync(stdoutFile, "utf8");
  rmSync(stdoutFile, { force: true });
  const result = { wallMs, code: run.status, stdout, stderr: run.stderr };
  if (useTime && existsSync(timeOut)) {
    const [, user, sys, rssKb, minorFaults] = readFileSync(timeOut, "utf8")
      .trim()
      .split("\n")
      .pop()
      .split(" ")
      .map(Number);
    result.cpuMs = (user + sys) * 1000;
    result.maxRssMb = rssKb / 1024;
    result.minorFaults = minorFaults;
    rmSync(timeOut, { force: true });
  }
  return result;
}

/** The three commands: arbor's arguments and pi's worker task for one file. */
const COMMANDS = [
  { name: "inspect", label: "`arbor inspect FILE --json`", arbor: (file) => ["inspect", file, "--json"] },
  { name: "tree", label: "`arbor tree FILE`", arbor: (file) => ["tree", file] },
  { name: "check", label: "`arbor check FILE` (pi: its open)", arbor: (file) => ["check", file] },
];

/** What both sides must agree on, from their outputs. */
function agreement(name, arborOut, piOut) {
  const pi = JSON.parse(piOut.trim().split("\n").pop());
  if (name === "inspect") {
    const report = JSON.parse(arborOut);
    const arbor = {
      leafId: report.leafId,
      messages: report.context.messages.length,
      estimatedTokens: report.context.estimatedTokens,
      firstKeptEntryId: report.compaction?.firstKeptEntryId ?? null,
      isSplitTurn: report.compaction?.isSplitTurn ?? null,
      tokensBefore: report.compaction?.tokensBefore ?? null,
    };
    return { same: JSON.stringify(arbor) === JSON.stringify(pi), arbor, pi };
  }
  if (name === "tree") {
    // Rows after the header line and the blank line, one per entry.
    const rows = arborOut.split("\n\n").slice(1).join("\n\n").trimEnd().split("\n").length;
    return { same: rows === pi.nodes, arbor: { nodes: rows }, pi };
  }
  return { same: true, arbor: { exit: 0 }, pi };
}

/**
 * Runs the whole-process measurements of one size: `reps` rounds, pi and Arbor alternating, each
 * command on `file` in a fresh process with an empty `$ARBOR_HOME`. Returns the raw runs and checks.
 */
export function measureWholeProcess({ file, reps, cliPath, piWorker, piDir, log = () => {} }) {
  const runs = {};
  const checks = [];
  const record = (key, value) => {
    runs[key] ??= [];
    runs[key].push(value);
  };
  const loads = [loadavg()[0]];
  for (let rep = 0; rep < reps; rep++) {
    for (const command of COMMANDS) {
      const order = rep % 2 === 0 ? ["pi", "arbor"] : ["arbor", "pi"];
      const outputs = {};
      for (const impl of order) {
        const home = mkdtempSync(join(tmpdir(), "arbor-bench-home-"));
        const run =
          impl === "pi"
            ? timeProcess([piWorker, command.name, file], { PI_ORACLE_DIR: piDir })
            : timeProcess([cliPath, ...command.arbor(file)], { ARBOR_HOME: home });
        rmSync(home, { recursive: true, force: true });
        const expected = command.name === "check" && impl === "arbor" ? [0, 1] : [0];
        if (!expected.includes(run.code))
          throw new Error(`${impl} ${command.name} ${file} exited ${run.code}: ${run.stderr.slice(0, 500)}`);
        outputs[impl] = run.stdout;
        const { stdout: _out, stderr: _err, ...timing } = run;
        record(`${impl}.${command.name}`, timing);
      }
      if (rep === 0) {
        const agreed = agreement(command.name, outputs.arbor, outputs.pi);
        checks.push({ command: command.name, ...agreed });
      }
    }
    log(".");
  }
  loads.push(loadavg()[0]);
  return { runs, checks, loads };
}

/** Start-up: `node -e 0`, `arbor --version`, `arbor inspect` on a one-entry session, pi's inspect on it. */
export function measureStartup({ reps, cliPath, piWorker, piDir, workDir }) {
  mkdirSync(workDir, { recursive: true });
  const one = join(workDir, "one-entry.jsonl");
  writeFileSync(
    one,
    `${JSON.stringify({ type: "session", version: 3, id: "one", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/w" })}\n${JSON.stringify({ type: "message", id: "u1", parentId: null, timestamp: "2025-01-01T00:00:01.000Z", message: { role: "user", content: "hi", timestamp: 1 } })}\n`,
  );
  const cases = [
    ["node", ["-e", "0"], {}],
    ["arbor --version", [cliPath, "--version"], {}],
    ["arbor inspect (1 entry) --json", [cliPath, "inspect", one, "--json"], {}],
    ["pi inspect (1 entry)", [piWorker, "inspect", one], { PI_ORACLE_DIR: piDir }],
  ];
  const runs = {};
  const loads = [loadavg()[0]];
  for (let rep = 0; rep < reps; rep++) {
    for (const [name, args, env] of rep % 2 === 0 ? cases : [...cases].reverse()) {
      const home = mkdtempSync(join(tmpdir(), "arbor-bench-home-"));
      const run = timeProcess(args, { ARBOR_HOME: home, ...env });
      rmSync(home, { recursive: true, force: true });
      if (run.code !== 0) throw new Error(`${name} exited ${run.code}: ${run.stderr.slice(0, 500)}`);
      const { stdout: _out, stderr: _err, ...timing } = run;
      runs[name] ??= [];
      runs[name].push(timing);
    }
  }
  loads.push(loadavg()[0]);
  return { runs, loads, reps };
}

/** Rows `{ command, metric, pi, arbor, ratio }` of one size's whole-process runs. */
export function wholeProcessRows(section) {
  const rows = [];
  for (const command of COMMANDS) {
    for (const [metric, unit, pick] of [
      ["wall", "ms", (r) => r.wallMs],
      ["CPU", "ms", (r) => r.cpuMs],
      ["peak RSS", "MB", (r) => r.maxRssMb],
      // First touches of fresh memory pages: what the machine's page-fault cost multiplies.
      [
        "minor page faults",
        "thousands",
        (r) => (r.minorFaults === undefined ? undefined : r.minorFaults / 1000),
      ],
    ]) {
      rows.push({
        command: command.name,
        label: command.label,
        metric,
        unit,
        ...comparedRuns(section.runs[`pi.${command.name}`], section.runs[`arbor.${command.name}`], pick),
      });
    }
  }
  return rows;
}

/** Start-up rows: median wall / CPU per case, and each against `node -e 0`. */
export function startupRows(startup) {
  const base = summarize((startup.runs.node ?? []).map((r) => r.wallMs));
  const baseCpu = summarize((startup.runs.node ?? []).map((r) => r.cpuMs));
  return Object.entries(startup.runs).map(([name, runs]) => {
    const wall = summarize(runs.map((r) => r.wallMs));
    const cpu = summarize(runs.map((r) => r.cpuMs));
    return {
      name,
      wall,
      cpu,
      overNode: wall && base ? wall.median - base.median : null,
      cpuOverNode: cpu && baseCpu ? cpu.median - baseCpu.median : null,
    };
  });
}

const fmt = (v) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v >= 1 ? v.toFixed(2) : v.toFixed(3));
const cell = (s) => (s ? `${fmt(s.median)} (${fmt(s.min)}–${fmt(s.max)})` : "–");
const ratioCell = (r) => (r === null || r === undefined ? "–" : `${r >= 10 ? r.toFixed(0) : r.toFixed(1)}×`);

/** The ratio of a library row (bench-report's rows) by metric name, for the goals. */
function libraryRatio(size, metric) {
  return size?.rows?.find((row) => row.metric.trim() === metric)?.ratio ?? null;
}

/**
 * The goals of issue 15 with the ratios this run measured (pi / Arbor of the medians, wall time):
 * `[goal, size label, measured ratio or null, threshold, CPU-time ratio or null]`.
 */
export function goals(result) {
  const at = (n) => result.sizes.find((size) => size.entries === n);
  const whole = (n, command, metric = "wall") =>
    at(n)?.wholeProcess
      ? (wholeProcessRows(at(n).wholeProcess).find((r) => r.command === command && r.metric === metric)
          ?.ratio ?? null)
      : null;
  const appendRatios = result.sizes
    .map((size) => [
      size.entries,
      libraryRatio(size, "append only, per entry (median), after the same heap warm-up"),
    ])
    .filter(([, ratio]) => ratio !== null);
  const label = (n) => (n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`);
  return [
    [
      "`arbor inspect --json`, whole process",
      "100k",
      whole(100_000, "inspect"),
      10,
      whole(100_000, "inspect", "CPU"),
    ],
    [
      "`arbor inspect --json`, whole process",
      "1M",
      whole(1_000_000, "inspect"),
      15,
      whole(1_000_000, "inspect", "CPU"),
    ],
    ["`arbor inspect --json`, peak RSS", "1M", whole(1_000_000, "inspect", "peak RSS"), 10, null],
    [
      "`arbor tree`, whole process (pi: open + `getTree`)",
      "100k",
      whole(100_000, "tree"),
      5,
      whole(100_000, "tree", "CPU"),
    ],
    [
      "`arbor check` within 1.5× of pi's open",
      "100k",
      whole(100_000, "check"),
      1 / 1.5,
      whole(100_000, "check", "CPU"),
    ],
    ...[100_000, 10_000, 1_000].map((n) => [
      "library open + projection, cold",
      label(n),
      libraryRatio(at(n), "open + projection of the leaf"),
      n === 100_000 ? 15 : 1,
      libraryRatio(at(n), "open + projection, CPU time"),
    ]),
    ["first `prepareCompaction`", "1k", libraryRatio(at(1_000), "prepareCompaction, first call"), 1, null],
    ...appendRatios.map(([n, ratio]) => ["plain append", label(n), ratio, 1, null]),
  ];
}

/** Markdown of the whole-process section (goals, start-up, one table per size). */
export function renderWholeProcess(result) {
  const lines = [
    "## Whole process: what a user waits for",
    "",
    "Every cell is a fresh `node` process started by the benchmark and timed from outside (wall: from",
    "its start to its exit, its stdout written to a file as `> out.txt` would; GNU `time`: CPU = user +",
    "system, peak RSS, page faults), the median (min–max) of the repetitions, pi and Arbor",
    "alternating on the same file in the same run. Arbor is the built CLI with an empty `$ARBOR_HOME`",
    "(no index cache, no settings: the file has never been opened by Arbor); pi 1.6.0 does the same work",
    "in `bench/pi-command-worker.mjs`: for `inspect`, `SessionManager.open`, `buildSessionProjection()`,",
    "`estimateProjectedContextTokens` and `prepareCompaction` (keepRecentTokens 20000, Arbor's default);",
    "for `tree`, open + `getTree()`; for `check`, its open (which parses every line; pi has no check).",
    "Both sides must agree: the leaf, message count, token estimate and cut point for `inspect`, the",
    "number of tree nodes for `tree`. The load is the 1-minute load average before → after each size.",
    "",
    "### Goals (issue 15), ratios pi / Arbor of this run",
    "",
    "| goal | size | measured (wall) | target | | CPU-time ratio |",
    "|---|---|---|---|---|---|",
  ];
  for (const [goal, size, ratio, target, cpu] of goals(result)) {
    // Met only when the CPU-time ratio (when known) holds too: on a loaded machine the longer process
    // waits longer for a core, which inflates the wall-time ratio in the faster side's favour.
    const status =
      ratio === null
        ? "not measured"
        : ratio < target
          ? "**not met**"
          : cpu !== null && cpu < target
            ? "**not met** in CPU time (met in wall time only)"
            : "**met**";
    const exact = (r) => (r === null ? "–" : `${r.toFixed(r >= 100 ? 0 : r >= 10 ? 1 : 2)}×`);
    lines.push(`| ${goal} | ${size} | ${exact(ratio)} | ≥ ${exact(target)} | ${status} | ${exact(cpu)} |`);
  }
  lines.push("");
  if (result.startup) {
    lines.push(
      `### Start-up (${result.startup.reps} runs each; load ${result.startup.loads.map((l) => l.toFixed(1)).join(" → ")})`,
      "",
    );
    if (result.startup.date && result.startup.date !== result.meta.date)
      lines.push(`Measured by another run (${result.startup.date}) and kept.`, "");
    lines.push(
      "| process | wall ms | CPU ms | wall over `node -e 0` | CPU over `node -e 0` |",
      "|---|---|---|---|---|",
    );
    for (const row of startupRows(result.startup)) {
      lines.push(
        `| ${row.name} | ${cell(row.wall)} | ${cell(row.cpu)} | ${row.overNode === null ? "–" : `+${fmt(Math.max(0, row.overNode))}`} | ${row.cpuOverNode === null ? "–" : `+${fmt(Math.max(0, row.cpuOverNode))}`} |`,
      );
    }
    lines.push("");
  }
  for (const size of result.sizes) {
    if (!size.wholeProcess) continue;
    const section = size.wholeProcess;
    lines.push(
      `### ${size.entries.toLocaleString("en-US")} entries (${size.fileMb.toFixed(1)} MB, ${section.reps} run${section.reps === 1 ? "" : "s"}; load ${section.loads.map((l) => l.toFixed(1)).join(" → ")})`,
      "",
    );
    if (section.date && section.date !== result.meta.date)
      lines.push(`Measured by another run (${section.date}) and kept.`, "");
    lines.push("| command | metric | pi 1.6.0 | Arbor | pi / Arbor |", "|---|---|---|---|---|");
    for (const row of wholeProcessRows(section)) {
      lines.push(
        `| ${row.label} | ${row.metric} (${row.unit}) | ${cell(row.pi)} | ${cell(row.arbor)} | ${ratioCell(row.ratio)} |`,
      );
    }
    lines.push("");
    for (const check of section.checks) {
      lines.push(
        check.same
          ? `- ${check.command}: both agree (${JSON.stringify(check.arbor)}).`
          : `- **${check.command}: results differ**: pi ${JSON.stringify(check.pi)}, Arbor ${JSON.stringify(check.arbor)}`,
      );
    }
    lines.push("");
  }
  return lines.join("\n");
}
