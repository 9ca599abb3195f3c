// Runs pi 1.6.0 (the oracle, see oracle.mjs) on every fixture session in src/__fixtures__ and writes what
// it computes to src/__goldens__/<fixture>.json. The golden tests compare @arbor/compaction against
// these files without pi. Run: node packages/compaction/scripts/make-goldens.mjs [fixture.jsonl ...]

import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  BRANCH_BUDGETS,
  fileOpsRecord,
  GENERATED_KEEP_VALUES,
  GENERATED_SESSIONS,
  hashOf,
  KEEP_VALUES,
  labelMessages,
  summarizeLabels,
} from "./golden-helpers.mjs";
import { loadOracle, PI_VERSION } from "./oracle.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const fixtureDir = path.join(root, "src/__fixtures__");
const goldenDir = path.join(root, "src/__goldens__");
mkdirSync(goldenDir, { recursive: true });
const pi = await loadOracle();

function leavesOf(entries) {
  const parents = new Set(entries.map((entry) => entry.parentId));
  return entries.filter((entry) => !parents.has(entry.id)).map((entry) => entry.id);
}

function probesOf(entries) {
  const probes = new Set(leavesOf(entries));
  entries.forEach((entry, index) => {
    if (index % 3 === 2) probes.add(entry.id);
  });
  return [...probes];
}

function describePreparation(preparation, projection, compact = false) {
  if (!preparation) return null;
  const prefixLabels = labelMessages(preparation.turnPrefixMessages, projection.entries);
  const labels = labelMessages(preparation.messagesToSummarize, projection.entries);
  return {
    firstKeptEntryId: preparation.firstKeptEntryId,
    isSplitTurn: preparation.isSplitTurn,
    turnStartEntryId: preparation.isSplitTurn ? (prefixLabels[0]?.split(":")[0] ?? null) : null,
    messagesToSummarize: compact ? summarizeLabels(labels) : labels,
    messagesHash: hashOf(preparation.messagesToSummarize),
    turnPrefixMessages: compact ? summarizeLabels(prefixLabels) : prefixLabels,
    turnPrefixHash: hashOf(preparation.turnPrefixMessages),
    tokensBefore: preparation.tokensBefore,
    previousSummary: preparation.previousSummary ?? null,
    fileOps: fileOpsRecord(preparation.fileOps),
    fileLists: pi.computeFileLists(preparation.fileOps),
  };
}

function caseFor(sm, leafId, isLeaf, keeps = KEEP_VALUES, compact = false) {
  sm.branch(leafId);
  const branch = sm.getBranch();
  const projection = sm.buildSessionProjection();
  const settings = (keep) => ({ enabled: true, reserveTokens: 16384, keepRecentTokens: keep });
  const shorten = (list) => (compact ? summarizeLabels(list) : list);
  const lastCompaction = branch.map((entry) => entry.type).lastIndexOf("compaction");
  const perKeep = (run) => Object.fromEntries(keeps.map((keep) => [keep, run(keep)]));
  const turnStarts = branch.map((_, index) => pi.findTurnStartIndex(branch, index, 0));
  const result = {
    leafId,
    branchIds: shorten(branch.map((entry) => entry.id)),
    projectedMessages: shorten(labelMessages(projection.messages, projection.entries)),
    estimateTokens: compact
      ? hashOf(projection.messages.map((message) => pi.estimateTokens(message)))
      : projection.messages.map((message) => pi.estimateTokens(message)),
    estimateContextTokens: pi.estimateContextTokens(projection.messages),
    estimateProjectedContextTokens: pi.estimateProjectedContextTokens(projection, branch),
    prepareCompaction: perKeep((keep) =>
      describePreparation(pi.prepareCompaction(branch, settings(keep)), projection, compact),
    ),
    findCutPoint: perKeep((keep) => pi.findCutPoint(branch, 0, branch.length, keep)),
    findCutPointAfterCompaction:
      lastCompaction < 0
        ? null
        : perKeep((keep) => pi.findCutPoint(branch, lastCompaction + 1, branch.length, keep)),
    findTurnStartIndex: compact ? hashOf(turnStarts) : turnStarts,
  };
  if (isLeaf && !compact) {
    const llm = pi.convertToLlm(projection.messages);
    result.serialize = { input: llm, output: pi.serializeConversation(llm) };
  }
  return result;
}

function branchCases(sm, entries, compact = false) {
  const leaves = leavesOf(entries);
  const step = compact ? Math.ceil(entries.length / 6) : 5;
  const targets = [
    ...new Set([...leaves, ...entries.filter((_, index) => index % step === 1).map((entry) => entry.id)]),
  ];
  const cases = [];
  for (const oldLeaf of leaves) {
    for (const target of targets) {
      if (target === oldLeaf) continue;
      const { entries: collected, commonAncestorId } = pi.collectEntriesForBranchSummary(sm, oldLeaf, target);
      const budgets = {};
      for (const budget of BRANCH_BUDGETS) {
        const prepared = pi.prepareBranchEntries(collected, budget);
        budgets[budget] = {
          roles: compact
            ? summarizeLabels(prepared.messages.map((message) => message.role))
            : prepared.messages.map((message) => message.role),
          messagesHash: hashOf(prepared.messages),
          totalTokens: prepared.totalTokens,
          fileOps: fileOpsRecord(prepared.fileOps),
          fileLists: pi.computeFileLists(prepared.fileOps),
        };
      }
      const ids = collected.map((entry) => entry.id);
      cases.push({
        oldLeaf,
        target,
        commonAncestorId,
        entries: compact ? summarizeLabels(ids) : ids,
        budgets,
      });
    }
  }
  return cases;
}

async function writeGenerated() {
  const generatorPath = path.resolve(root, "../../bench/generate-session.mjs");
  const { generateSessionLines } = await import(generatorPath);
  for (const spec of GENERATED_SESSIONS) {
    if (requested.length > 0 && !requested.includes(spec.name)) continue;
    const content = `${[...generateSessionLines({ entries: spec.entries, seed: spec.seed })].join("\n")}\n`;
    const sm = pi.SessionManager.inMemory("/home/user/proj", undefined, pi.parseSessionEntries(content));
    const entries = sm.getEntries();
    const leaves = leavesOf(entries);
    const step = Math.ceil(entries.length / 8);
    const probes = [
      ...new Set([
        ...leaves,
        ...entries.filter((_, index) => index % step === step - 1).map((entry) => entry.id),
      ]),
    ];
    const golden = {
      generatedBy: `pi ${PI_VERSION} via packages/compaction/scripts/make-goldens.mjs`,
      generator: {
        entries: spec.entries,
        seed: spec.seed,
        sha1: createHash("sha1").update(content).digest("hex"),
      },
      cases: probes.map((leafId) => caseFor(sm, leafId, false, GENERATED_KEEP_VALUES, true)),
      branchSummaries: branchCases(sm, entries, true),
    };
    const out = path.join(goldenDir, `${spec.name}.json`);
    writeFileSync(out, `${JSON.stringify(golden)}\n`);
    console.log(
      `${spec.name}: ${golden.cases.length} leaves, ${golden.branchSummaries.length} branch cases -> ${path.relative(root, out)}`,
    );
  }
}

const requested = process.argv.slice(2);
const fixtures = readdirSync(fixtureDir).filter(
  (file) => file.endsWith(".jsonl") && (requested.length === 0 || requested.includes(file)),
);
for (const file of fixtures) {
  const fileEntries = pi.parseSessionEntries(readFileSync(path.join(fixtureDir, file), "utf8"));
  const sm = pi.SessionManager.inMemory("/home/dev/project", undefined, fileEntries);
  const entries = sm.getEntries();
  const leaves = new Set(leavesOf(entries));
  const golden = {
    generatedBy: `pi ${PI_VERSION} via packages/compaction/scripts/make-goldens.mjs`,
    fixture: file,
    cases: probesOf(entries).map((leafId) => caseFor(sm, leafId, leaves.has(leafId))),
    branchSummaries: branchCases(sm, entries),
  };
  const out = path.join(goldenDir, file.replace(/\.jsonl$/, ".json"));
  writeFileSync(out, `${JSON.stringify(golden)}\n`);
  console.log(
    `${file}: ${golden.cases.length} leaves, ${golden.branchSummaries.length} branch cases -> ${path.relative(root, out)}`,
  );
}
await writeGenerated();
