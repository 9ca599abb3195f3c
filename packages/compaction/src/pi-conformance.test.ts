/**
 * Conformance with pi 1.6.0 (contract 3): every fixture session, at many leaves and keepRecentTokens
 * values, against the goldens that scripts/make-goldens.mjs recorded by running pi. pi is not needed here.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { buildSessionPath, buildSessionProjection, type SessionEntry } from "@arbor/session-store";
import { beforeAll, describe, expect, it } from "vitest";
import {
  BRANCH_BUDGETS,
  fileOpsRecord,
  GENERATED_KEEP_VALUES,
  hashOf,
  KEEP_VALUES,
  labelMessages,
  summarizeLabels,
} from "../scripts/golden-helpers.mjs";
import { collectEntriesForBranchSummary } from "./branch/collect-entries-for-branch-summary";
import { prepareBranchEntries } from "./branch/prepare-branch-entries";
import { findCutPoint, findTurnStartIndex } from "./cut-point/find-cut-point";
import { computeFileLists } from "./files/file-operations";
import { type LoadedFixture, loadFixture } from "./internal/testing/load-fixture";
import { type CompactionPreparation, prepareCompaction } from "./prepare/prepare-compaction";
import { serializeConversation } from "./serialize/serialize-conversation";
import { estimateContextTokens } from "./tokens/estimate-context-tokens";
import { estimateProjectedContextTokens } from "./tokens/estimate-projected-context-tokens";
import { estimateTokens } from "./tokens/estimate-tokens";

const GOLDEN_DIR = path.resolve(import.meta.dirname, "__goldens__");

interface GoldenCase {
  leafId: string;
  branchIds: unknown;
  projectedMessages: unknown;
  estimateTokens: unknown;
  estimateContextTokens: unknown;
  estimateProjectedContextTokens: unknown;
  prepareCompaction: Record<string, unknown>;
  findCutPoint: Record<string, unknown>;
  findCutPointAfterCompaction: Record<string, unknown> | null;
  findTurnStartIndex: unknown;
  serialize?: { input: never[]; output: string };
}

interface GoldenBranchCase {
  oldLeaf: string;
  target: string;
  commonAncestorId: string | null;
  entries: unknown;
  budgets: Record<string, unknown>;
}

interface Golden {
  fixture?: string;
  generator?: { entries: number; seed: number; sha1: string };
  cases: GoldenCase[];
  branchSummaries: GoldenBranchCase[];
}

function shortener(compact: boolean) {
  return (labels: string[]) => (compact ? summarizeLabels(labels) : labels);
}

function describePreparation(
  preparation: CompactionPreparation | undefined,
  projection: ReturnType<typeof buildSessionProjection>,
  compact: boolean,
) {
  if (!preparation) return null;
  const shorten = shortener(compact);
  return {
    firstKeptEntryId: preparation.firstKeptEntryId,
    isSplitTurn: preparation.isSplitTurn,
    turnStartEntryId: preparation.turnStartEntryId ?? null,
    messagesToSummarize: shorten(labelMessages(preparation.messagesToSummarize, projection.entries)),
    messagesHash: hashOf(preparation.messagesToSummarize),
    turnPrefixMessages: shorten(labelMessages(preparation.turnPrefixMessages, projection.entries)),
    turnPrefixHash: hashOf(preparation.turnPrefixMessages),
    tokensBefore: preparation.tokensBefore,
    previousSummary: preparation.previousSummary ?? null,
    fileOps: fileOpsRecord(preparation.fileOps),
    fileLists: computeFileLists(preparation.fileOps),
  };
}

/**
 * `pnpm mutation` (ARBOR_MUTATION=1) checks the hand-made fixtures only: the generated 6000-entry
 * sessions take 97% of this file's time and take the same code paths; `pnpm test` checks them all.
 */
const goldens: Golden[] = readdirSync(GOLDEN_DIR)
  .filter((file) => file.endsWith(".json"))
  .map((file) => JSON.parse(readFileSync(path.join(GOLDEN_DIR, file), "utf8")) as Golden)
  .filter((golden) => process.env.ARBOR_MUTATION !== "1" || golden.generator === undefined);

/** The monorepo's root, found upwards (the tests also run from a copy of the package: `pnpm mutation`). */
function repositoryRoot(): string {
  for (let dir = import.meta.dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "pnpm-workspace.yaml"))) return dir;
  }
  throw new Error(`no pnpm-workspace.yaml above ${import.meta.dirname}`);
}

/** Regenerates a generated session with the bench generator and checks it is the one pi saw. */
async function loadGenerated(generator: NonNullable<Golden["generator"]>): Promise<LoadedFixture> {
  const generatorPath = path.join(repositoryRoot(), "bench/generate-session.mjs");
  const { generateSessionLines } = (await import(generatorPath)) as {
    generateSessionLines(options: { entries: number; seed: number }): Iterable<string>;
  };
  const content = `${[...generateSessionLines(generator)].join("\n")}\n`;
  const sha1 = createHash("sha1").update(content).digest("hex");
  if (sha1 !== generator.sha1) {
    throw new Error("bench/generate-session.mjs output changed: run scripts/make-goldens.mjs again");
  }
  const entries = content
    .split("\n")
    .filter((line) => line.trim())
    .slice(1)
    .map((line) => JSON.parse(line) as SessionEntry);
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const branch = (leafId: string) => buildSessionPath(entries, leafId, byId);
  return { entries, byId, branch, getBranch: branch, getEntry: (id) => byId.get(id) };
}

function nameOf(golden: Golden): string {
  return golden.fixture ?? `generated ${golden.generator?.entries} entries, seed ${golden.generator?.seed}`;
}

describe.each(goldens.map((golden) => [nameOf(golden), golden] as const))(
  "pi conformance: %s",
  (_name, golden) => {
    const compact = golden.generator !== undefined;
    const keeps = compact ? GENERATED_KEEP_VALUES : KEEP_VALUES;
    const shorten = shortener(compact);
    let session: LoadedFixture;
    beforeAll(async () => {
      session = golden.generator ? await loadGenerated(golden.generator) : loadFixture(golden.fixture ?? "");
    }, 60_000);

    it.each(golden.cases.map((entry) => [entry.leafId, entry] as const))("leaf %s", (leafId, expected) => {
      const branch = session.branch(leafId);
      expect(shorten(branch.map((entry) => entry.id))).toEqual(expected.branchIds);
      const projection = buildSessionProjection(branch);
      expect(shorten(labelMessages(projection.messages, projection.entries))).toEqual(
        expected.projectedMessages,
      );
      const estimates = projection.messages.map((message) => estimateTokens(message));
      expect(compact ? hashOf(estimates) : estimates).toEqual(expected.estimateTokens);
      expect(estimateContextTokens(projection.messages)).toEqual(expected.estimateContextTokens);
      expect(estimateProjectedContextTokens(projection, branch)).toEqual(
        expected.estimateProjectedContextTokens,
      );
      for (const keep of keeps) {
        const settings = { enabled: true, reserveTokens: 16384, keepRecentTokens: keep };
        expect(
          describePreparation(prepareCompaction(branch, settings), projection, compact),
          `keep=${keep}`,
        ).toEqual(expected.prepareCompaction[keep]);
        expect(findCutPoint(branch, 0, branch.length, keep), `raw keep=${keep}`).toEqual(
          expected.findCutPoint[keep],
        );
      }
      if (expected.findCutPointAfterCompaction) {
        const start = branch.map((entry) => entry.type).lastIndexOf("compaction") + 1;
        for (const keep of keeps) {
          expect(findCutPoint(branch, start, branch.length, keep)).toEqual(
            expected.findCutPointAfterCompaction[keep],
          );
        }
      } else {
        expect(branch.some((entry) => entry.type === "compaction")).toBe(false);
      }
      const turnStarts = branch.map((_, index) => findTurnStartIndex(branch, index, 0));
      expect(compact ? hashOf(turnStarts) : turnStarts).toEqual(expected.findTurnStartIndex);
      if (expected.serialize) {
        expect(serializeConversation(expected.serialize.input)).toBe(expected.serialize.output);
      }
    });

    it.each(golden.branchSummaries.map((entry) => [`${entry.oldLeaf}->${entry.target}`, entry] as const))(
      "branch summary %s",
      (_label, expected) => {
        const collected = collectEntriesForBranchSummary(session, expected.oldLeaf, expected.target);
        expect(collected.commonAncestorId).toBe(expected.commonAncestorId);
        expect(shorten(collected.entries.map((entry: SessionEntry) => entry.id))).toEqual(expected.entries);
        for (const budget of BRANCH_BUDGETS) {
          const prepared = prepareBranchEntries(collected.entries, budget);
          expect(
            {
              roles: shorten(prepared.messages.map((message) => message.role)),
              messagesHash: hashOf(prepared.messages),
              totalTokens: prepared.totalTokens,
              fileOps: fileOpsRecord(prepared.fileOps),
              fileLists: computeFileLists(prepared.fileOps),
            },
            `budget=${budget}`,
          ).toEqual(expected.budgets[budget]);
        }
      },
    );
  },
);
