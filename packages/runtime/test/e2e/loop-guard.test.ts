import { isContextOverflowText } from "@arbor/providers";
import { overflowReply, textReply, toolCallReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import type { SessionErrorEvent } from "../../src/events/session-events";
import { bigReadTool, closeHarnesses, createHarness, scriptReplies } from "../helpers/harness";

afterEach(closeHarnesses);

const settings = { compaction: { reserveTokens: 10_000, keepRecentTokens: 4000 } };

describe("the compaction loop guard", () => {
  it("stops with CONTEXT_STILL_TOO_LARGE when the kept part alone is over the threshold, and never compacts again", async () => {
    // The tool result alone (~32500 tokens) is above the threshold (30000) and cannot be cut.
    const h = await createHarness({ settings, tools: [bigReadTool(130_000)] });
    scriptReplies(
      h.server,
      [
        textReply("hi"),
        toolCallReply("read", { path: "huge.log" }, { usage: { input: 200, output: 20 } }),
        // Realistic usage: the context is still above the threshold (the kept tool result alone is),
        // so only the stalled-compaction guard keeps the session from compacting again.
        textReply("next answer", { usage: { input: 32_600, output: 20 } }),
      ],
      [textReply("SUMMARY"), textReply("PREFIX")],
    );
    await h.session.prompt("hello");
    const result = await h.session.prompt("read huge.log");

    expect(result.error?.code).toBe("CONTEXT_STILL_TOO_LARGE");
    expect(result.error?.threshold).toBe(30_000);
    expect(result.error?.contextWindow).toBe(40_000);
    expect(result.error?.tokens).toBeGreaterThan(30_000);
    expect(isContextOverflowText(result.error?.message ?? "")).toBe(false);
    expect(h.agentRequests()).toHaveLength(2);
    expect(h.eventTypes((type) => type === "compaction_start")).toHaveLength(1);
    const errors = h.events.filter((event): event is SessionErrorEvent => event.type === "session_error");
    expect(errors.map((event) => event.error.code)).toEqual(["CONTEXT_STILL_TOO_LARGE"]);

    // The next prompt is sent without another (useless) threshold compaction.
    const next = await h.session.prompt("go on");
    expect(next.error).toBeUndefined();
    expect(next.lastAssistant?.content).toEqual([{ type: "text", text: "next answer" }]);
    expect(h.eventTypes((type) => type === "compaction_start")).toHaveLength(1);
    expect(h.fileEntries().filter((entry) => entry.type === "compaction")).toHaveLength(1);
  });

  it("stops with COMPACTION_LOOP_GUARD after maxConsecutiveAutoCompactions without a successful response", async () => {
    const h = await createHarness({
      settings,
      tools: [bigReadTool(60_000)],
      compaction: { maxConsecutiveAutoCompactions: 1 },
    });
    scriptReplies(
      h.server,
      [
        textReply("noted", { usage: { input: 15_100, output: 100 } }),
        toolCallReply("read", { path: "big.txt" }, { usage: { input: 15_300, output: 20 } }),
        overflowReply("native"),
      ],
      [textReply("SUMMARY"), textReply("PREFIX")],
    );
    await h.session.prompt(`remember ${"p".repeat(60_000)}`);
    const result = await h.session.prompt("read big.txt");
    expect(result.error?.code).toBe("COMPACTION_LOOP_GUARD");
    expect(result.retried).toBe(false);
    expect(h.eventTypes((type) => type === "compaction_start")).toHaveLength(1);
    expect(h.agentRequests()).toHaveLength(3);
    expect(h.server.pending).toBe(0);
  });

  it("rejects an unusable cap", async () => {
    await expect(createHarness({ compaction: { maxConsecutiveAutoCompactions: 0 } })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });
});
