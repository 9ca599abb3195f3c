#!/usr/bin/env node
/**
 * `pnpm bench:context`: replays every context policy on the corpus with the built CLI
 * (`arbor replay --json`) and writes docs/context-economics.md (tables, goal, raw JSON) with one SVG
 * chart per session under docs/context-economics/.
 *
 *   node bench/context-economics.mjs [--only NAME] [--no-write] [--jobs 2] [--from FILE]
 *
 * Every run's reports (with their series) are saved to $TMPDIR/arbor-context-economics-last.json;
 * `--from FILE` renders the doc and charts from such a file without replaying anything.
 *
 * Corpus: the four real pi sessions of ../shared/pi-sessions (PI_SESSIONS overrides the folder) at
 * windows that force compaction, the example session, and two generated long sessions.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { renderContextChart } from "./context-chart.mjs";
import { renderContextReport } from "./context-report.mjs";
import { writeSessionFile } from "./generate-session.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLI = path.join(ROOT, "apps/cli/dist/main.cjs");
const POLICIES = ["pi", "mask", "cache-aware"];
const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
};
const only = option("--only");
const jobs = Number(option("--jobs") ?? 2);
const write = !args.includes("--no-write");

const piDir = process.env.PI_SESSIONS ?? path.resolve(ROOT, "../../shared/pi-sessions");
const realDir = fs.existsSync(piDir) ? piDir : "/work/shared/pi-sessions";
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-context-bench-"));

/** name, file, window, what. */
const corpus = [
  {
    name: "pi-mono-session",
    file: path.join(realDir, "pi-mono-session.jsonl.gz"),
    window: 64_000,
    kind: "real",
  },
  {
    name: "pi-mono-large-session",
    file: path.join(realDir, "pi-mono-large-session.jsonl.gz"),
    window: 100_000,
    kind: "real",
  },
  {
    name: "pi-mono-compact",
    file: path.join(realDir, "pi-mono-compact.jsonl.gz"),
    window: 200_000,
    kind: "real",
  },
  {
    name: "pi-mono-before-compaction",
    file: path.join(realDir, "pi-mono-before-compaction.jsonl.gz"),
    window: 200_000,
    kind: "real",
  },
  {
    name: "example (todo-api-pagination)",
    file: path.join(ROOT, "examples/todo-api-pagination.jsonl"),
    window: 8_000,
    kind: "example",
  },
  { name: "generated-4k-seed1", generate: { entries: 4000, seed: 1 }, window: 64_000, kind: "generated" },
  { name: "generated-4k-seed2", generate: { entries: 4000, seed: 2 }, window: 64_000, kind: "generated" },
].filter((item) => only === undefined || item.name.includes(only));

for (const item of corpus) {
  if (item.generate) {
    item.file = path.join(tmp, `${item.name}.jsonl`);
    writeSessionFile(item.file, item.generate);
  }
}

function replay(item, policy) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [CLI, "replay", item.file, "--policy", policy, "--window", String(item.window), "--json"],
      {
        env: { PATH: process.env.PATH, HOME: tmp, ARBOR_HOME: tmp },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (err += chunk));
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`${item.name} ${policy}: exit ${code}\n${err}`));
      else resolve(JSON.parse(out));
    });
  });
}

const from = option("--from");
const saved = path.join(os.tmpdir(), "arbor-context-economics-last.json");
const tasks = from ? [] : corpus.flatMap((item) => POLICIES.map((policy) => ({ item, policy })));
const results = from ? JSON.parse(fs.readFileSync(from, "utf8")) : [];
let next = 0;
async function worker() {
  while (next < tasks.length) {
    const task = tasks[next++];
    const started = Date.now();
    const report = await replay(task.item, task.policy);
    results.push({ name: task.item.name, kind: task.item.kind, ...report, session: task.item.name });
    const { series: _series, ...brief } = report;
    process.stderr.write(
      `${task.item.name} ${task.policy}: $${report.costUsd.toFixed(3)} peak ${report.peakContextTokens} summaries ${report.summaryCalls} edits ${report.contextEdits} retention ${report.retention.toFixed(3)} overflows ${report.overflows} loops ${report.loops} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
    );
    void brief;
  }
}
await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
fs.rmSync(tmp, { recursive: true, force: true });
if (!from) fs.writeFileSync(saved, JSON.stringify(results));

const ordered = corpus.flatMap((item) =>
  POLICIES.map((policy) => results.find((r) => r.name === item.name && r.policy === policy)),
);
if (write) {
  const chartDir = path.join(ROOT, "docs/context-economics");
  fs.mkdirSync(chartDir, { recursive: true });
  const charts = {};
  for (const item of corpus) {
    const slug = item.name
      .replace(/[^a-z0-9-]+/gi, "-")
      .replace(/-+$/, "")
      .toLowerCase();
    const runs = ordered.filter((r) => r.name === item.name);
    fs.writeFileSync(
      path.join(chartDir, `${slug}.svg`),
      renderContextChart(`${item.name}, window ${item.window}`, runs),
    );
    charts[item.name] = `context-economics/${slug}.svg`;
  }
  const raw = ordered.map(({ series, ...rest }) => rest);
  fs.writeFileSync(path.join(ROOT, "docs/context-economics.json"), `${JSON.stringify(raw, null, 2)}\n`);
  fs.writeFileSync(
    path.join(ROOT, "docs/context-economics.md"),
    renderContextReport({ corpus, runs: raw, charts }),
  );
  process.stderr.write(
    "wrote docs/context-economics.md, docs/context-economics.json and docs/context-economics/*.svg\n",
  );
}
