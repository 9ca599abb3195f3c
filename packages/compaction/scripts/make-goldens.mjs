// Runs pi 1.6.0 (the oracle, see oracle.mjs) on every fixture session in src/__fixtures__ and writes what
// it computes to src/__goldens__/<fixture>.json. The golden tests compare @arbor/compaction against
// these files without pi. Run: node packages/compaction/scripts/make-goldens.mjs [fixture.jsonl ...]
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BRANCH_BUDGETS, fileOpsRecord, hashOf, KEEP_VALUES, labelMessages } from "./golden-helpers.mjs";
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

function describePreparation(preparation, projection) {
  if (!preparation) return null;
  const prefixLabels = labelMessages(preparation.turnPrefixMessages, projection.entries);
  return {
    firstKeptEntryId: preparation.firstKeptEntryId,
    isSplitTurn: preparation.isSplitTurn,
    turnStartEntryId: preparation.isSplitTurn ? (prefixLabels[0]?.split(":")[0] ?? null) : null,
    messagesToSummarize: labelMessages(preparation.messagesToSummarize, projection.entries),
    messagesHash: hashOf(preparation.messagesToSummarize),
    turnPrefixMessages: prefixLabels,
    turnPrefixHash: hashOf(preparation.turnPrefixMessages),
    tokensBefore: preparation.tokensBefore,
    previousSummary: preparation.previousSummary ?? null,
    fileOps: fileOpsRecord(preparation.fileOps),
    fileLists: pi.computeFileLists(preparation.fileOps),
  };
}

function caseFor(sm, leafId, isLeaf) {
  sm.branch(leafId);
  const branch = sm.getBranch();
  const projection = sm.buildSessionProjection();
  const settings = (keep) => ({ enabled: true, reserveTokens: 16384, keepRecentTokens: keep });
  let lastCompaction = -1;
  branch.forEach((entry, index) => {
    if (entry.type === "compaction") lastCompaction = index;
  });
  const result = {
    leafId,
    branchIds: branch.map((entry) => entry.id),
    projectedMessages: labelMessages(projection.messages, projection.entries),
    estimateTokens: projection.messages.map((message) => pi.estimateTokens(message)),
    estimateContextTokens: pi.estimateContextTokens(projection.messages),
    estimateProjectedContextTokens: pi.estimateProjectedContextTokens(projection, branch),
    prepareCompaction: Object.fromEntries(
      KEEP_VALUES.map((keep) => [
        keep,
        describePreparation(pi.prepareCompaction(branch, settings(keep)), projection),
      ]),
    ),
    findCutPoint: Object.fromEntries(
      KEEP_VALUES.map((keep) => [keep, pi.findCutPoint(branch, 0, branch.length, keep)]),
    ),
    findCutPointAfterCompaction:
      lastCompaction < 0
        ? null
        : Object.fromEntries(
            KEEP_VALUES.map((keep) => [
              keep,
              pi.findCutPoint(branch, lastCompaction + 1, branch.length, keep),
            ]),
          ),
    findTurnStartIndex: branch.map((_, index) => pi.findTurnStartIndex(branch, index, 0)),
  };
  if (isLeaf) {
    const llm = pi.convertToLlm(projection.messages);
    result.serialize = { input: llm, output: pi.serializeConversation(llm) };
  }
  return result;
}

function branchCases(sm, entries) {
  const leaves = leavesOf(entries);
  const targets = [
    ...new Set([...leaves, ...entries.filter((_, index) => index % 5 === 1).map((entry) => entry.id)]),
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
          roles: prepared.messages.map((message) => message.role),
          messagesHash: hashOf(prepared.messages),
          totalTokens: prepared.totalTokens,
          fileOps: fileOpsRecord(prepared.fileOps),
          fileLists: pi.computeFileLists(prepared.fileOps),
        };
      }
      cases.push({ oldLeaf, target, commonAncestorId, entries: collected.map((entry) => entry.id), budgets });
    }
  }
  return cases;
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
