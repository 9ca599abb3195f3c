import { textReply, toolCallReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import type { CompactionStartEvent } from "../../src/events/session-events";
import {
  bigReadTool,
  closeHarnesses,
  conversationText,
  createHarness,
  type Harness,
  scriptReplies,
  type WireApi,
} from "../helpers/harness";

afterEach(closeHarnesses);

const settings = { compaction: { reserveTokens: 10_000, keepRecentTokens: 4000 } };

/**
 * Threshold 30000 (window 40000 - reserve 10000). Prompt 1 is ~15000 tokens; prompt 2's tool result
 * is ~15000 more, so after it the projected context (usage 15320 + the result) crosses the threshold.
 */
async function crossThresholdBetweenTurns(api: WireApi): Promise<Harness> {
  const h = await createHarness({ api, settings, tools: [bigReadTool(60_000)] });
  scriptReplies(
    h.server,
    [
      textReply("noted", { usage: { input: 15_100, output: 100 } }),
      toolCallReply("read", { path: "big.txt" }, { usage: { input: 15_300, output: 20 } }),
      textReply("the file is all x"),
    ],
    [textReply("## Goal\nSUMMARY-HISTORY"), textReply("## Original Request\nSUMMARY-PREFIX")],
  );
  const first = await h.session.prompt(`Remember the word PELICAN. ${"p".repeat(60_000)}`);
  expect(first.error).toBeUndefined();
  const second = await h.session.prompt("read big.txt");
  expect(second.error).toBeUndefined();
  expect(second.lastAssistant?.content).toEqual([{ type: "text", text: "the file is all x" }]);
  return h;
}

describe.each<WireApi>(["anthropic", "openai"])("threshold compaction between turns (%s SDK)", (api) => {
  it("compacts after the tool result, before the next request, and carries on", async () => {
    const h = await crossThresholdBetweenTurns(api);
    const entries = h.fileEntries();
    const types = entries.map((entry) => (entry.type === "message" ? entry.message.role : entry.type));
    expect(types).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "toolResult",
      "compaction",
      "assistant",
    ]);
    const compaction = entries[5];
    if (compaction?.type !== "compaction") throw new Error("expected a compaction entry");
    expect(compaction.firstKeptEntryId).toBe(entries[3]?.id);
    expect(compaction.fromHook).toBe(false);
    expect(compaction.summary).toContain("SUMMARY-HISTORY");

    const [, , last] = h.agentRequests();
    const sent = conversationText(last);
    expect(sent).toContain("SUMMARY-HISTORY");
    expect(sent).toContain("contents of big.txt");
    expect(sent).not.toContain("PELICAN");
    expect(h.summaryRequests().length).toBeGreaterThanOrEqual(1);
    expect(conversationText(h.summaryRequests()[0])).toContain("PELICAN");
  });

  it("emits turn_end, compaction_start, session_compact, compaction_end, then the next turn_start", async () => {
    const h = await crossThresholdBetweenTurns(api);
    const sequence = h.eventTypes((type) =>
      ["turn_end", "turn_start", "compaction_start", "session_compact", "compaction_end"].includes(type),
    );
    expect(sequence.slice(-6)).toEqual([
      "turn_end",
      "compaction_start",
      "session_compact",
      "compaction_end",
      "turn_start",
      "turn_end",
    ]);
    const start = h.events.find((event) => event.type === "compaction_start") as CompactionStartEvent;
    expect(start).toEqual({ type: "compaction_start", reason: "threshold", willRetry: false });
  });
});
