// Differential check of `arbor inspect --json` against pi 1.6.0 (the reference implementation).
//
//   node apps/cli/scripts/compare-inspect-with-pi.mjs [--pi-dir DIR] [session.jsonl ...]
//
// For each session (default: the shipped example and two sessions from the benchmark generator), for
// several leaves and keepRecentTokens values, it compares the CLI's report with what pi computes with
// buildSessionProjection, estimateProjectedContextTokens, estimateTokens, prepareCompaction and
// computeFileLists. pi is installed into a scratch folder with npm unless --pi-dir points at a folder
// that already has node_modules/@earendil-works/pi-coding-agent. Needs the built CLI. Exits 1 on a
// difference. Nothing of pi is copied into the repository.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ensurePiOracle, importPiModule } from "../../../scripts/pi-oracle.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const cli = path.join(root, "apps/cli/dist/main.cjs");
const args = process.argv.slice(2);
const piDirFlag = args.indexOf("--pi-dir");
let piDir = piDirFlag === -1 ? undefined : args.splice(piDirFlag, 2)[1];
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-pi-compare-"));

piDir = piDir === undefined ? path.join(scratch, "pi") : path.resolve(piDir);
ensurePiOracle(piDir);
// Deep modules by file URL: the package index needs Node 22, these load on Node 20.
const sessions = await importPiModule("dist/core/session-manager.js", piDir);
const compaction = await importPiModule("dist/core/compaction/index.js", piDir);

let files = args;
if (files.length === 0) {
  const generator = await import(pathToFileURL(path.join(root, "bench/generate-session.mjs")).href);
  files = [path.join(root, "examples/todo-api-pagination.jsonl")];
  for (const seed of [3, 5]) {
    const file = path.join(scratch, `generated-${seed}.jsonl`);
    generator.writeSessionFile(file, { entries: 1500, seed });
    files.push(file);
  }
}

function piReport(text, leafId, keepRecentTokens) {
  const manager = sessions.SessionManager.inMemory("/x", undefined, sessions.parseSessionEntries(text));
  manager.branch(leafId);
  const branch = manager.getBranch();
  const projection = manager.buildSessionProjection();
  const preparation = compaction.prepareCompaction(branch, {
    enabled: true,
    reserveTokens: 16384,
    keepRecentTokens,
  });
  const lists = preparation && compaction.computeFileLists(preparation.fileOps);
  return {
    path: branch.map((entry) => entry.id),
    estimatedTokens: compaction.estimateProjectedContextTokens(projection, branch).tokens,
    messages: projection.entries.flatMap((entry) =>
      entry.messages.map((message) => [
        entry.sourceEntry.id,
        message.role,
        compaction.estimateTokens(message),
      ]),
    ),
    compaction: preparation && {
      firstKeptEntryId: preparation.firstKeptEntryId,
      isSplitTurn: preparation.isSplitTurn,
      tokensBefore: preparation.tokensBefore,
      hasPreviousSummary: preparation.previousSummary !== undefined,
      summarizeRoles: preparation.messagesToSummarize.map((message) => message.role),
      prefixRoles: preparation.turnPrefixMessages.map((message) => message.role),
      readFiles: lists.readFiles,
      modifiedFiles: lists.modifiedFiles,
    },
  };
}

function arborReport(file, leafId, keepRecentTokens) {
  const run = spawnSync(
    process.execPath,
    [cli, "inspect", file, "--json", "--leaf", leafId, "--keep-recent-tokens", String(keepRecentTokens)],
    {
      encoding: "utf8",
      env: { PATH: process.env.PATH, HOME: scratch, ARBOR_HOME: path.join(scratch, "home") },
    },
  );
  if (run.status !== 0) throw new Error(`arbor inspect failed: ${run.stderr}`);
  const report = JSON.parse(run.stdout);
  const compactionReport = report.compaction;
  return {
    path: report.path,
    estimatedTokens: report.context.estimatedTokens,
    messages: report.context.messages.map((message) => [
      message.entryId,
      message.role,
      message.estimatedTokens,
    ]),
    compaction: compactionReport && {
      firstKeptEntryId: compactionReport.firstKeptEntryId,
      isSplitTurn: compactionReport.isSplitTurn,
      tokensBefore: compactionReport.tokensBefore,
      hasPreviousSummary: compactionReport.hasPreviousSummary,
      summarizeRoles: compactionReport.messagesToSummarize.map((message) => message.role),
      prefixRoles: compactionReport.turnPrefixMessages.map((message) => message.role),
      readFiles: compactionReport.readFiles,
      modifiedFiles: compactionReport.modifiedFiles,
    },
  };
}

let checks = 0;
let differences = 0;
for (const file of files) {
  const text = fs.readFileSync(file, "utf8");
  const ids = sessions
    .parseSessionEntries(text)
    .filter((entry) => entry.type !== "session")
    .map((entry) => entry.id);
  const leaves = [ids.at(-1), ...[0.25, 0.5, 0.75].map((at) => ids[Math.floor(at * ids.length)])];
  for (const leafId of leaves) {
    for (const keep of [0, 1000, 4000, 20000]) {
      checks++;
      const expected = piReport(text, leafId, keep);
      const actual = arborReport(file, leafId, keep);
      const fields = ["path", "estimatedTokens", "messages", "compaction"].filter(
        (field) => JSON.stringify(expected[field] ?? null) !== JSON.stringify(actual[field] ?? null),
      );
      if (fields.length > 0) {
        differences++;
        console.log(`DIFFERENT ${path.basename(file)} leaf ${leafId} keep ${keep}: ${fields.join(", ")}`);
        for (const field of fields) {
          console.log(`  pi:    ${JSON.stringify(expected[field] ?? null).slice(0, 300)}`);
          console.log(`  arbor: ${JSON.stringify(actual[field] ?? null).slice(0, 300)}`);
        }
      }
    }
  }
  console.log(`${path.basename(file)}: ${leaves.length} leaves × 4 budgets compared`);
}
fs.rmSync(scratch, { recursive: true, force: true });
console.log(`${checks} comparisons, ${differences} differences`);
process.exit(differences === 0 ? 0 : 1);
