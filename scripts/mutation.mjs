// `pnpm mutation [package ...]`: mutation testing (StrykerJS) of the modules that decide what the
// model sees and when a session compacts or recovers. Runs each package's stryker.config.mjs in
// turn (one at a time: the runs are CPU-heavy), then writes the compact summary docs/mutation.json
// and prints the score of each package against its target. Exits 1 when a package it ran is below
// its target. `--summary-only` re-reads the last reports without running Stryker; other `--` options
// go to Stryker (`--incremental` reuses the previous run's results for unchanged code and tests).
// `--markdown` prints the per-file table and the undetected mutants of docs/mutation.json (for
// docs/mutation.md) and runs nothing.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { summarizeMutationReport } from "./summarize-mutation-report.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The mutated file groups and their targets: detected / (detected + undetected), in percent. */
const TARGETS = {
  "session-store": { target: 97, group: "context projection" },
  compaction: { target: 95, group: "cut points and preparation" },
  runtime: { target: 90, group: "runtime compaction decisions and recovery" },
  extensions: { target: 90, group: "hook bus dispatch" },
};

const args = process.argv.slice(2);
const summaryOnly = args.includes("--summary-only") || args.includes("--markdown");
const selected = args.filter((arg) => !arg.startsWith("--"));
const strykerArgs = args.filter(
  (arg) => arg.startsWith("--") && arg !== "--summary-only" && arg !== "--markdown",
);
for (const name of selected) {
  if (!(name in TARGETS)) {
    console.error(`mutation: unknown package "${name}" (one of: ${Object.keys(TARGETS).join(", ")})`);
    process.exit(2);
  }
}
const packages = selected.length > 0 ? selected : Object.keys(TARGETS);
const stryker = path.join(root, "node_modules/@stryker-mutator/core/bin/stryker.js");

if (!summaryOnly) {
  for (const name of packages) {
    console.log(`\n=== mutation testing: packages/${name} (${TARGETS[name].group})`);
    const result = spawnSync(process.execPath, [stryker, "run", "stryker.config.mjs", ...strykerArgs], {
      cwd: path.join(root, "packages", name),
      stdio: "inherit",
    });
    if (result.status !== 0) {
      console.error(`mutation: stryker failed in packages/${name} (exit ${result.status})`);
      process.exit(1);
    }
  }
}

const summaryFile = path.join(root, "docs/mutation.json");
if (args.includes("--markdown")) {
  printMarkdown(JSON.parse(fs.readFileSync(summaryFile, "utf8")));
  process.exit(0);
}
const summary = fs.existsSync(summaryFile) ? JSON.parse(fs.readFileSync(summaryFile, "utf8")) : {};
let belowTarget = false;
console.log("\npackage        | target | score  | detected | undetected");
for (const name of Object.keys(TARGETS)) {
  const reportFile = path.join(root, "packages", name, "reports/mutation/mutation.json");
  if (packages.includes(name) && fs.existsSync(reportFile)) {
    const report = JSON.parse(fs.readFileSync(reportFile, "utf8"));
    summary[name] = { ...TARGETS[name], ...summarizeMutationReport(report) };
  }
  const entry = summary[name];
  if (entry === undefined) continue;
  const below = entry.score !== null && entry.score < entry.target;
  if (below && packages.includes(name)) belowTarget = true;
  console.log(
    `${name.padEnd(14)} | ${`${entry.target}%`.padEnd(6)} | ${`${entry.score}%`.padEnd(6)} | ${String(entry.detected).padEnd(8)} | ${entry.undetected}${below ? "  (below target)" : ""}`,
  );
}
fs.writeFileSync(summaryFile, `${JSON.stringify(summary, null, 2)}\n`);
console.log(
  `\nsummary written to ${path.relative(root, summaryFile)} (reports: packages/*/reports/mutation/)`,
);
if (belowTarget) process.exit(1);

function printMarkdown(summary) {
  console.log("| file | killed | timeout | survived | no coverage | score |");
  console.log("|---|---|---|---|---|---|");
  for (const [name, entry] of Object.entries(summary)) {
    for (const [file, counts] of Object.entries(entry.files)) {
      const { killed, timeout, survived, noCoverage, score } = counts;
      console.log(
        `| \`packages/${name}/${file}\` | ${killed} | ${timeout} | ${survived} | ${noCoverage} | ${score}% |`,
      );
    }
  }
  for (const [name, entry] of Object.entries(summary)) {
    console.log(`\n${name}:`);
    for (const s of entry.survivors) {
      console.log(
        `- \`${s.file}:${s.line}:${s.column}\` ${s.mutator}${s.status === "NoCoverage" ? " (no coverage)" : ""}: \`${s.original}\` → \`${s.replacement}\``,
      );
    }
  }
}
