/**
 * Conformance with pi 1.6.0 (contract 3): every fixture session, at many leaves and keepRecentTokens
 * values, against the goldens that scripts/make-goldens.mjs recorded by running pi. pi is not needed here.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { buildSessionProjection, type SessionEntry } from "@arbor/session-store";
import { describe, expect, it } from "vitest";
import {
  BRANCH_BUDGETS,
  fileOpsRecord,
  hashOf,
  KEEP_VALUES,
  labelMessages,
} from "../scripts/golden-helpers.mjs";
import { collectEntriesForBranchSummary } from "./branch/collect-entries-for-branch-summary";
import { prepareBranchEntries } from "./branch/prepare-branch-entries";
import { findCutPoint, findTurnStartIndex } from "./cut-point/find-cut-point";
import { computeFileLists } from "./files/file-operations";
import { loadFixture } from "./internal/testing/load-fixture";
import { type CompactionPreparation, prepareCompaction } from "./prepare/prepare-compaction";
import { serializeConversation } from "./serialize/serialize-conversation";
import { estimateContextTokens } from "./tokens/estimate-context-tokens";
import { estimateProjectedContextTokens } from "./tokens/estimate-projected-context-tokens";
import { estimateTokens } from "./tokens/estimate-tokens";

const GOLDEN_DIR = path.resolve(import.meta.dirname, "__goldens__");

interface GoldenCase {
  leafId: string;
  branchIds: string[];
  projectedMessages: string[];
  estimateTokens: number[];
  estimateContextTokens: unknown;
  estimateProjectedContextTokens: unknown;
  prepareCompaction: Record<string, unknown>;
  findCutPoint: Record<string, unknown>;
  findCutPointAfterCompaction: Record<string, unknown> | null;
  findTurnStartIndex: number[];
  serialize?: { input: never[]; output: string };
}

interface GoldenBranchCase {
  oldLeaf: string;
  target: string;
  commonAncestorId: string | null;
  entries: string[];
  budgets: Record<string, unknown>;
}

interface Golden {
  fixture: string;
  cases: GoldenCase[];
  branchSummaries: GoldenBranchCase[];
}

function describePreparation(
  preparation: CompactionPreparation | undefined,
  projection: ReturnType<typeof buildSessionProjection>,
) {
  if (!preparation) return null;
  return {
    firstKeptEntryId: preparation.firstKeptEntryId,
    isSplitTurn: preparation.isSplitTurn,
    turnStartEntryId: preparation.turnStartEntryId ?? null,
    messagesToSummarize: labelMessages(preparation.messagesToSummarize, projection.entries),
    messagesHash: hashOf(preparation.messagesToSummarize),
    turnPrefixMessages: labelMessages(preparation.turnPrefixMessages, projection.entries),
    turnPrefixHash: hashOf(preparation.turnPrefixMessages),
    tokensBefore: preparation.tokensBefore,
    previousSummary: preparation.previousSummary ?? null,
    fileOps: fileOpsRecord(preparation.fileOps),
    fileLists: computeFileLists(preparation.fileOps),
  };
}

const goldens: Golden[] = readdirSync(GOLDEN_DIR)
  .filter((file) => file.endsWith(".json"))
  .map((file) => JSON.parse(readFileSync(path.join(GOLDEN_DIR, file), "utf8")) as Golden);

describe.each(goldens.map((golden) => [golden.fixture, golden] as const))(
  "pi conformance: %s",
  (fixture, golden) => {
    const session = loadFixture(fixture);

    it.each(golden.cases.map((entry) => [entry.leafId, entry] as const))("leaf %s", (leafId, expected) => {
      const branch = session.branch(leafId);
      expect(branch.map((entry) => entry.id)).toEqual(expected.branchIds);
      const projection = buildSessionProjection(branch);
      expect(labelMessages(projection.messages, projection.entries)).toEqual(expected.projectedMessages);
      expect(projection.messages.map((message) => estimateTokens(message))).toEqual(expected.estimateTokens);
      expect(estimateContextTokens(projection.messages)).toEqual(expected.estimateContextTokens);
      expect(estimateProjectedContextTokens(projection, branch)).toEqual(
        expected.estimateProjectedContextTokens,
      );
      for (const keep of KEEP_VALUES) {
        const settings = { enabled: true, reserveTokens: 16384, keepRecentTokens: keep };
        expect(describePreparation(prepareCompaction(branch, settings), projection), `keep=${keep}`).toEqual(
          expected.prepareCompaction[keep],
        );
        expect(findCutPoint(branch, 0, branch.length, keep), `raw keep=${keep}`).toEqual(
          expected.findCutPoint[keep],
        );
      }
      if (expected.findCutPointAfterCompaction) {
        const start = branch.map((entry) => entry.type).lastIndexOf("compaction") + 1;
        for (const keep of KEEP_VALUES) {
          expect(findCutPoint(branch, start, branch.length, keep)).toEqual(
            expected.findCutPointAfterCompaction[keep],
          );
        }
      }
      expect(branch.map((_, index) => findTurnStartIndex(branch, index, 0))).toEqual(
        expected.findTurnStartIndex,
      );
      if (expected.serialize) {
        expect(serializeConversation(expected.serialize.input)).toBe(expected.serialize.output);
      }
    });

    it.each(golden.branchSummaries.map((entry) => [`${entry.oldLeaf}->${entry.target}`, entry] as const))(
      "branch summary %s",
      (_label, expected) => {
        const collected = collectEntriesForBranchSummary(session, expected.oldLeaf, expected.target);
        expect(collected.commonAncestorId).toBe(expected.commonAncestorId);
        expect(collected.entries.map((entry: SessionEntry) => entry.id)).toEqual(expected.entries);
        for (const budget of BRANCH_BUDGETS) {
          const prepared = prepareBranchEntries(collected.entries, budget);
          expect(
            {
              roles: prepared.messages.map((message) => message.role),
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
