import { textReply, toolCallReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import { bigReadTool, closeHarnesses, createHarness, scriptReplies } from "../helpers/harness";

afterEach(closeHarnesses);

/**
 * Issue 11 §7: an 8k model (the CLI README's models.json example) with no compaction settings. pi's
 * defaults (reserve 16384, keep 20000) do not fit its window: keepRecentTokens alone covers the whole
 * context, so a compaction never has anything to summarize. The session scales them to 2048 / 2048
 * (threshold 6144) and compacts.
 */
describe("compaction with defaults that do not fit a small window", () => {
  it("uses scaled effective values, reports them, and compacts between turns", async () => {
    const h = await createHarness({ contextWindow: 8192, maxTokens: 1024, tools: [bigReadTool(12_000)] });
    expect(h.session.getCompactionSettings()).toEqual({
      enabled: true,
      reserveTokens: 2048,
      keepRecentTokens: 2048,
      scaledFrom: { reserveTokens: 16384, keepRecentTokens: 20000, contextWindow: 8192 },
    });
    expect(h.session.getContextUsage()?.threshold).toBe(6144);
    scriptReplies(
      h.server,
      [
        textReply("noted", { usage: { input: 4100, output: 20 } }),
        toolCallReply("read", { path: "big.txt" }, { usage: { input: 4200, output: 20 } }),
        textReply("the file is all x"),
      ],
      [textReply("## Goal\nSUMMARY-HISTORY"), textReply("## Original Request\nSUMMARY-PREFIX")],
    );
    expect((await h.session.prompt(`Remember PELICAN. ${"p".repeat(16_000)}`)).error).toBeUndefined();
    const second = await h.session.prompt("read big.txt");
    expect(second.error).toBeUndefined();
    expect(second.lastAssistant?.content).toEqual([{ type: "text", text: "the file is all x" }]);
    const types = h.fileEntries().map((entry) => entry.type);
    expect(types.filter((type) => type === "compaction")).toHaveLength(1);
    expect(h.eventTypes((type) => type === "compaction_end")).toEqual(["compaction_end"]);
  });

  it("keeps configured values that fit, and a per-model override is fitted too", async () => {
    const h = await createHarness({
      contextWindow: 8192,
      modelId: "small",
      settings: {
        compaction: {
          reserveTokens: 2000,
          keepRecentTokens: 1000,
          modelOverrides: { "anthropic/small": { keepRecentTokens: 9000 } },
        },
      },
    });
    expect(h.session.getCompactionSettings()).toMatchObject({
      reserveTokens: 2000,
      keepRecentTokens: 2048,
      scaledFrom: { reserveTokens: 2000, keepRecentTokens: 9000, contextWindow: 8192 },
    });
    await h.session.setModel({ ...h.model, id: "large", contextWindow: 200_000 });
    expect(h.session.getCompactionSettings()).toEqual({
      enabled: true,
      reserveTokens: 2000,
      keepRecentTokens: 1000,
    });
  });
});
