import { defineModel } from "@arbor/providers";
import { createScriptedProvider } from "@arbor/providers/testing";
import { describe, expect, it } from "vitest";
import { collectEntriesForBranchSummary } from "./branch/collect-entries-for-branch-summary";
import { createDefaultCompactor } from "./compactor";
import { loadFixture } from "./internal/testing/load-fixture";
import { prepareCompaction } from "./prepare/prepare-compaction";

const model = defineModel({
  id: "m",
  provider: "scripted",
  api: "anthropic-messages",
  contextWindow: 100_000,
});
const session = loadFixture("coding-session.jsonl");
const preparation = prepareCompaction(session.branch("usr00003"), {
  enabled: true,
  reserveTokens: 0,
  keepRecentTokens: 0,
});

describe("createDefaultCompactor", () => {
  it("summarizes with the model and falls back offline when it fails", async () => {
    if (!preparation) throw new Error("nothing to compact");
    const provider = createScriptedProvider([
      { content: [{ type: "text", text: "MODEL SUMMARY" }] },
      { error: "PROVIDER_SERVER_ERROR" },
    ]);
    const compactor = createDefaultCompactor({ provider, model, retry: { maxRetries: 0 } });
    expect(compactor.name).toBe("default(scripted/m)");
    const first = await compactor.compact(preparation, { customInstructions: "focus" });
    expect(first.summarizer).toBe("model");
    expect(first.summary.startsWith("MODEL SUMMARY")).toBe(true);
    expect(provider.calls[0]?.options.cacheRetention).toBe("none");
    const second = await compactor.compact(preparation);
    expect(second.summarizer).toBe("offline");
    expect(second.fallbackError?.code).toBe("SUMMARY_FAILED");
  });

  it("works offline without a model, for compactions and branches", async () => {
    if (!preparation) throw new Error("nothing to compact");
    const compactor = createDefaultCompactor();
    expect(compactor.name).toBe("default(offline)");
    expect((await compactor.compact(preparation)).summarizer).toBe("offline");
    const { entries } = collectEntriesForBranchSummary(session, "ast00013", "ast000b3");
    expect((await compactor.summarizeBranch(entries)).summarizer).toBe("offline");
  });

  it("propagates aborts instead of falling back", async () => {
    if (!preparation) throw new Error("nothing to compact");
    const provider = createScriptedProvider([
      { content: [{ type: "text", text: "late" }], eventDelayMs: 100 },
    ]);
    const compactor = createDefaultCompactor({ provider, model });
    const controller = new AbortController();
    const pending = compactor.compact(preparation, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ code: "SUMMARY_ABORTED" });
  });
});
