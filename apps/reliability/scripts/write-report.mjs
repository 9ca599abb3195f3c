#!/usr/bin/env node
/**
 * Runs the reliability suite with RELIABILITY_FIGURES_DIR set, then writes the figures every test
 * recorded to docs/reliability.json and into the generated block of docs/reliability.md (between
 * `<!-- figures:start -->` and `<!-- figures:end -->`). The rest of the document is hand-written.
 *
 *   pnpm --filter @arbor/session-store... build && pnpm --filter @arbor/runtime... build
 *   pnpm --filter @arbor/reliability report
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const figuresDir = mkdtempSync(join(tmpdir(), "arbor-reliability-figures-"));
const started = Date.now();
const run = spawnSync("pnpm", ["vitest", "run", "--project", "reliability"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, RELIABILITY_FIGURES_DIR: figuresDir },
});
if (run.status !== 0) {
  rmSync(figuresDir, { recursive: true, force: true });
  throw new Error("the reliability suite failed: no report written");
}
const figures = Object.fromEntries(
  readdirSync(figuresDir)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => [name.replace(/\.json$/, ""), JSON.parse(readFileSync(join(figuresDir, name), "utf8"))]),
);
rmSync(figuresDir, { recursive: true, force: true });
const seconds = Math.round((Date.now() - started) / 1000);
const date = new Date().toISOString();
writeFileSync(
  join(root, "docs/reliability.json"),
  `${JSON.stringify({ date, suiteSeconds: seconds, figures }, null, 2)}\n`,
);

const n = (value) => (typeof value === "number" ? value.toLocaleString("en-US") : String(value));
const kill = figures["sigkill-storm"] ?? {};
const lock = figures["lock-contention"] ?? {};
const fuzz = figures["line-fuzzer"] ?? {};
const write = figures["write-faults"] ?? {};
const provider = figures["provider-faults"] ?? {};
const providerCases = Object.values(provider.scenariosPassed ?? {}).reduce((a, b) => a + b, 0);
const rows = [
  [
    "SIGKILL during append storms",
    `${n(kill.kills)} kills (${n(kill.externalKills)} at random times from outside, ${n(kill.selfKillsInsideWrite)} inside a write at a random byte), ${n(kill.chains)} sessions, modes ${(kill.durabilityModes ?? []).join(" / ")}`,
    `${n(kill.acknowledgedAppends)} acknowledged appends; ${n(kill.tornTailsQuarantined)} torn last lines quarantined`,
    n(kill.acknowledgedEntriesLost),
  ],
  [
    "Two writers on one session",
    `${n(lock.trials)} races of 2 processes (+ a retry each)`,
    `${n(lock.lockedOut)} × SESSION_LOCKED naming the holder; ${n(lock.entriesOnDisk)} entries written`,
    "0 (no interleaved or torn line)",
  ],
  [
    "Fuzzed session lines",
    `${n(fuzz.cases)} damaged sessions (${n(fuzz.memoryCases)} in memory, ${n(fuzz.fileCases)} real files), ${Object.keys(fuzz.mutationKinds ?? {}).length} kinds of damage`,
    `${n(fuzz.validEntriesChecked)} untouched entries checked; ${n(fuzz.untypedErrors)} untyped errors`,
    n(fuzz.validEntriesLost),
  ],
  [
    "ENOSPC / EIO on writes",
    `${n(write.appendCalls)} append calls, ${n(write.appendCallsHitByAFault)} hit by a fault, plus targeted cases (whole line, part of a line, fsync, header, failed cut-back, background fsync, read error, through the store)`,
    `${n(write.typedErrors)} typed SESSION_WRITE_FAILED; ${n(write.reopens)} reopens, ${n(write.tornLinesQuarantinedOnReopen)} torn lines quarantined`,
    `${n(write.acknowledgedEntriesLost)} (and ${n(write.rolledBackEntriesKept)} rolled-back entries kept)`,
  ],
  [
    "Provider faults through the runtime",
    `${n(providerCases)} scenarios (${Object.keys(provider.scenariosPassed ?? {}).length} kinds × the Anthropic and OpenAI SDKs)`,
    "every session file whole-turn, every next request well-formed",
    "0 (no half-written turn)",
  ],
];
const hostile = Object.entries(figures)
  .filter(([name]) => name.startsWith("hostile-"))
  .map(([, value]) => value);
const hostileKeys = [
  "probes",
  "secretsLeaked",
  "orphanedProcesses",
  "stackTraceCrashes",
  "filesChangedByReadOnlyCommands",
];
const hostileTotal = Object.fromEntries(
  hostileKeys.map((key) => [key, hostile.reduce((sum, row) => sum + (row[key] ?? 0), 0)]),
);
const hostileBlock =
  hostile.length === 0
    ? []
    : [
        "",
        "Hostile input through the built CLI (`test/hostile-*.test.ts`):",
        "",
        "| area | probes tried | secrets leaked | orphaned processes | crashes with a stack trace | files changed by read-only commands |",
        "|---|---|---|---|---|---|",
        ...[...hostile, { area: "**total**", ...hostileTotal }].map(
          (row) => `| ${row.area} | ${hostileKeys.map((key) => n(row[key] ?? 0)).join(" | ")} |`,
        ),
      ];
const block = [
  "<!-- figures:start -->",
  `Figures of the run on ${date} (whole suite: ${seconds} s; raw: [reliability.json](reliability.json)).`,
  "",
  "| fault | trials / inputs | outcome | acknowledged entries lost |",
  "|---|---|---|---|",
  ...rows.map((row) => `| ${row.join(" | ")} |`),
  ...hostileBlock,
  "<!-- figures:end -->",
].join("\n");
const docPath = join(root, "docs/reliability.md");
const doc = readFileSync(docPath, "utf8");
const start = doc.indexOf("<!-- figures:start -->");
const end = doc.indexOf("<!-- figures:end -->");
if (start < 0 || end < 0) throw new Error("docs/reliability.md has no figures block");
writeFileSync(docPath, doc.slice(0, start) + block + doc.slice(end + "<!-- figures:end -->".length));
console.log(`wrote docs/reliability.md and docs/reliability.json (${seconds} s)`);
