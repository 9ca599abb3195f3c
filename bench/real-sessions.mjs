/**
 * The library on real pi sessions, next to the generated ones: the four sessions of
 * ../shared/pi-sessions (`PI_SESSIONS` names another folder of `*.jsonl.gz` or `*.jsonl` files), as pi
 * wrote them. They are older than the generated sessions: pi's first format (no `version` in the
 * header, no entry ids), which both sides migrate in memory when they open them, so every line is
 * parsed on both sides. Each measurement is a fresh process (`bench/session-store-worker.mjs`, task
 * `open`, Arbor without a sidecar index) on a fresh copy of the file, pi and Arbor alternating.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { comparedRuns } from "./bench-report.mjs";

/** The folder of real sessions, or `undefined` when there is none on this machine. */
export function realSessionsDir(root) {
  const candidates = [
    process.env.PI_SESSIONS,
    resolve(root, "../../shared/pi-sessions"),
    "/work/shared/pi-sessions",
  ];
  return candidates.find((dir) => dir !== undefined && existsSync(dir));
}

/** The real sessions of `dir`, unpacked into `workDir`: `{ name, file, fileMb, lines, version }`. */
export function realSessionFiles(dir, workDir) {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".jsonl.gz") || name.endsWith(".jsonl"))
    .sort()
    .map((name) => {
      const bytes = readFileSync(join(dir, name));
      const text = name.endsWith(".gz") ? gunzipSync(bytes) : bytes;
      const base = name.replace(/\.gz$/, "");
      const file = join(workDir, `real-${base}`);
      writeFileSync(file, text);
      const header = JSON.parse(text.subarray(0, text.indexOf(10)).toString("utf8"));
      return {
        name: base,
        file,
        fileMb: statSync(file).size / 1e6,
        lines: text
          .toString("latin1")
          .split("\n")
          .filter((line) => line.length > 0).length,
        version: typeof header.version === "number" ? header.version : 1,
      };
    });
}

/**
 * Open + projection of each real session, `reps` rounds per side, alternating. `openCold(impl, file)`
 * runs one measurement in a fresh process on a copy of `file` and returns the worker's result.
 */
export function measureRealSessions({ sessions, reps, impls, openCold }) {
  return {
    reps,
    sessions: sessions.map((session) => {
      const runs = Object.fromEntries(impls.map((impl) => [impl, []]));
      for (let rep = 0; rep < reps; rep++) {
        for (const impl of rep % 2 === 0 ? impls : [...impls].reverse())
          runs[impl].push(openCold(impl, session.file));
      }
      const { file: _file, ...about } = session;
      return { ...about, runs };
    }),
  };
}

const fmt = (v) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const cell = (s) => (s ? `${fmt(s.median)} (${fmt(s.min)}–${fmt(s.max)})` : "–");

/** Rows `{ name, metric, pi, arbor, ratio }` of the real sessions (wall and CPU time). */
export function realSessionRows(section) {
  const rows = [];
  for (const session of section.sessions) {
    for (const [metric, pick] of [
      ["open + projection, wall", (r) => r.totalMs],
      ["open + projection, CPU", (r) => r.cpuMs],
    ]) {
      rows.push({ name: session.name, metric, ...comparedRuns(session.runs.pi, session.runs.arbor, pick) });
    }
  }
  return rows;
}

/** Markdown of the real-sessions section (an empty list when none was measured). */
export function renderRealSessions(section) {
  if (!section || section.sessions.length === 0) return [];
  const lines = [
    `## Real pi sessions (library, cold, ${section.reps} run${section.reps === 1 ? "" : "s"} each)`,
    "",
    "Sessions pi wrote during real work (../shared/pi-sessions), in pi's first format (no `version`, no",
    "entry ids), which both sides migrate in memory: every line is parsed on both sides, so the lazy",
    "open that makes Arbor fast on the generated sessions does not apply. Fresh process and fresh copy",
    "of the file for every run; ms, median (min–max).",
    "",
    "| session | size | metric | pi 1.6.0 | Arbor | pi / Arbor |",
    "|---|---|---|---|---|---|",
  ];
  for (const row of realSessionRows(section)) {
    const session = section.sessions.find((s) => s.name === row.name);
    const size = `${session.lines.toLocaleString("en-US")} lines, ${session.fileMb.toFixed(1)} MB, v${session.version}`;
    const ratio = row.ratio === null ? "–" : `${row.ratio.toFixed(2)}×`;
    lines.push(`| ${row.name} | ${size} | ${row.metric} | ${cell(row.pi)} | ${cell(row.arbor)} | ${ratio} |`);
  }
  lines.push("");
  for (const session of section.sessions) {
    const counts = Object.entries(session.runs).map(([impl, runs]) => [impl, runs[0]?.projectedMessages]);
    const values = new Set(counts.map(([, count]) => count));
    if (counts.length === 1) {
      lines.push(`- ${session.name}: ${counts[0][0]} projected ${counts[0][1]} messages (pi not measured).`);
      continue;
    }
    lines.push(
      values.size === 1
        ? `- ${session.name}: both projected ${counts[0][1]} messages.`
        : `- **${session.name}: projections differ**: ${counts.map(([impl, count]) => `${impl} ${count}`).join(", ")}`,
    );
  }
  lines.push("");
  return lines;
}
