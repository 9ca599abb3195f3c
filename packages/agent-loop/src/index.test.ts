import { expect, it } from "vitest";

it("exports exactly the documented runtime names", async () => {
  expect(Object.keys(await import("./index")).sort()).toMatchInlineSnapshot(`
    [
      "AgentLoopError",
      "BRANCH_SUMMARY_PREFIX",
      "BRANCH_SUMMARY_SUFFIX",
      "COMPACTION_SUMMARY_PREFIX",
      "COMPACTION_SUMMARY_SUFFIX",
      "convertToLlm",
      "formatBashExecution",
      "normalizeContext",
      "renderSystemPrompt",
      "replaySystemMessages",
      "resolveCurrentTools",
      "runAgentLoop",
      "systemContentText",
    ]
  `);
});
