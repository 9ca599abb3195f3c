import { describe, expect, it } from "vitest";
import * as root from "./index";
import * as tiktoken from "./tiktoken/index";

describe("public surface", () => {
  it("exports these runtime names from the root entry", () => {
    expect(Object.keys(root).sort()).toMatchInlineSnapshot(`
      [
        "BRANCH_SUMMARY_PREAMBLE",
        "BRANCH_SUMMARY_PROMPT",
        "CACHE_SHARING_SUMMARY_PROMPT",
        "CompactionError",
        "CompactionSettingsError",
        "DEFAULT_COMPACTION_SETTINGS",
        "DEFAULT_FILE_TOOL_MAPPING",
        "EMPTY_BRANCH_SUMMARY",
        "ESTIMATED_IMAGE_CHARS",
        "INITIAL_SUMMARY_PROMPT",
        "SPLIT_TURN_SEPARATOR",
        "SUMMARY_SYSTEM_PROMPT",
        "TOOL_RESULT_MAX_CHARS",
        "TURN_PREFIX_SUMMARY_PROMPT",
        "UPDATE_SUMMARY_PROMPT",
        "cacheSharingSummaryRequest",
        "calculateContextTokens",
        "calibrationKey",
        "collectEntriesForBranchSummary",
        "compact",
        "computeFileLists",
        "createCalibratedEstimator",
        "createDefaultCompactor",
        "createFileOps",
        "defaultTokenCounter",
        "estimateContextTokens",
        "estimateProjectedContextTokens",
        "estimateTokens",
        "extractFileOpsFromMessage",
        "findCutPoint",
        "findProjectedCutPoint",
        "findTurnStartIndex",
        "fitSummaryMaxTokens",
        "formatFileOperations",
        "generateBranchSummary",
        "generateSummary",
        "generateTurnPrefixSummary",
        "prepareBranchEntries",
        "prepareCompaction",
        "resolveCompactionSettings",
        "serializeConversation",
        "shouldCompact",
        "summarizeOffline",
      ]
    `);
  });

  it("exports these runtime names from ./tiktoken", () => {
    expect(Object.keys(tiktoken).sort()).toMatchInlineSnapshot(`
      [
        "createTiktokenCounter",
      ]
    `);
  });
});
