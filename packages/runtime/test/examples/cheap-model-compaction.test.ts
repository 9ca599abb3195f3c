import { loadExtensionFromFile } from "@arbor/extensions";
import { serverErrorReply, textReply, toolCallReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  bigReadTool,
  closeHarnesses,
  createHarness,
  type Harness,
  type HarnessOptions,
  scriptReplies,
} from "../helpers/harness";
import { examplePath } from "./example-paths";

afterEach(closeHarnesses);

const file = examplePath("cheap-model-compaction.ts");

/** Crosses the threshold between turns (see threshold-compaction.test.ts for the numbers). */
async function run(
  options: HarnessOptions,
  summaries: Parameters<typeof scriptReplies>[2],
): Promise<Harness> {
  const h = await createHarness({ tools: [bigReadTool(60_000)], ...options });
  scriptReplies(
    h.server,
    [
      textReply("noted", { usage: { input: 15_100, output: 100 } }),
      toolCallReply("read", { path: "big.txt" }, { usage: { input: 15_300, output: 20 } }),
      textReply("done"),
    ],
    summaries,
  );
  await h.session.prompt(`remember ${"p".repeat(60_000)}`);
  const result = await h.session.prompt("read big.txt");
  expect(result.error).toBeUndefined();
  return h;
}

const settings = {
  compaction: { reserveTokens: 10_000, keepRecentTokens: 4000 },
  cheapModelCompaction: { model: "claude-cheap", maxTokens: 512 },
};

describe("examples/extensions/cheap-model-compaction.ts", { timeout: 30_000 }, () => {
  it("loads from its file and summarizes with the cheaper model; the session keeps its model", async () => {
    const { extension } = await loadExtensionFromFile(file);
    expect(extension.name).toBe("cheap-model-compaction");
    const h = await run({ extensions: [file], settings }, [
      textReply("CHEAP-HISTORY"),
      textReply("CHEAP-PREFIX"),
    ]);

    const summaryModels = h.summaryRequests().map((request) => (request.body as { model: string }).model);
    const agentModels = h.agentRequests().map((request) => (request.body as { model: string }).model);
    expect(summaryModels.length).toBeGreaterThanOrEqual(1);
    expect(new Set(summaryModels)).toEqual(new Set(["claude-cheap"]));
    expect(new Set(agentModels)).toEqual(new Set(["claude-test"]));
    const compaction = h.fileEntries().find((entry) => entry.type === "compaction");
    expect(compaction).toMatchObject({
      type: "compaction",
      fromHook: true,
      details: { summarizedBy: "anthropic/claude-cheap" },
    });
    expect(compaction?.type === "compaction" && compaction.summary).toContain("CHEAP-HISTORY");
    expect(h.events.find((event) => event.type === "compaction_end")).toMatchObject({
      result: { summarizer: "extension" },
    });
  });

  it("when the cheap model fails, the session reports it and compacts with its own model", async () => {
    const h = await run({ extensions: [file], settings }, [
      serverErrorReply(500),
      textReply("MAIN-HISTORY"),
      textReply("MAIN-PREFIX"),
    ]);
    const models = h.summaryRequests().map((request) => (request.body as { model: string }).model);
    expect(models[0]).toBe("claude-cheap");
    expect(models.slice(1).every((model) => model === "claude-test")).toBe(true);
    expect(
      h.events.some((event) => event.type === "hook_error" && event.hookName === "session_before_compact"),
    ).toBe(true);
    const compaction = h.fileEntries().find((entry) => entry.type === "compaction");
    expect(compaction).toMatchObject({ type: "compaction", fromHook: false });
    expect(compaction?.type === "compaction" && compaction.summary).toContain("MAIN-HISTORY");
  });

  it("rejects a missing configuration at setup, naming the setting", async () => {
    await expect(createHarness({ extensions: [file], settings: {} })).rejects.toMatchObject({
      code: "EXTENSION_SETUP_FAILED",
      message: expect.stringContaining("settings.cheapModelCompaction"),
    });
  });
});
