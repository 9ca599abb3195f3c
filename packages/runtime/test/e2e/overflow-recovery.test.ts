import { overflowReply, serverErrorReply, textReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  closeHarnesses,
  conversationText,
  createHarness,
  type Harness,
  scriptReplies,
  type WireApi,
} from "../helpers/harness";

afterEach(closeHarnesses);

const settings = { compaction: { reserveTokens: 10_000, keepRecentTokens: 4000 } };
const BIG_PROMPT = `Summarize the log below. ${"l".repeat(60_000)}`;

function roles(h: Harness): string[] {
  return h.fileEntries().map((entry) => (entry.type === "message" ? entry.message.role : entry.type));
}

describe.each<WireApi>(["anthropic", "openai"])("overflow recovery (%s SDK)", (api) => {
  it("omits the failed attempt, compacts once and retries once", async () => {
    const h = await createHarness({ api, settings });
    scriptReplies(
      h.server,
      [textReply("hi"), overflowReply("native"), textReply("recovered")],
      [textReply("## Goal\nSUMMARY-HISTORY"), textReply("## Original Request\nSUMMARY-PREFIX")],
    );
    await h.session.prompt("hello");
    const result = await h.session.prompt(BIG_PROMPT);

    expect(result.error).toBeUndefined();
    expect(result.retried).toBe(true);
    expect(result.lastAssistant?.content).toEqual([{ type: "text", text: "recovered" }]);
    expect(h.agentRequests()).toHaveLength(3);
    expect(h.eventTypes((type) => type === "compaction_start")).toHaveLength(1);
    expect(h.events.find((event) => event.type === "compaction_start")).toEqual({
      type: "compaction_start",
      reason: "overflow",
      willRetry: true,
    });

    const entries = h.fileEntries();
    expect(roles(h)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "context_edit",
      "compaction",
      "assistant",
    ]);
    const failed = entries[3];
    const edit = entries[4];
    if (failed?.type !== "message" || failed.message.role !== "assistant")
      throw new Error("expected the failed response");
    expect(failed.message.stopReason).toBe("error");
    expect(edit).toMatchObject({ type: "context_edit", targetId: failed.id, replacement: null });
    const retry = conversationText(h.agentRequests()[2]);
    expect(retry).not.toContain("l".repeat(100));
    expect(retry).toContain("SUMMARY-HISTORY");
  });

  it("orders the recovery: failed message, turn_end, agent_end, compaction, new run", async () => {
    const h = await createHarness({ api, settings });
    scriptReplies(
      h.server,
      [textReply("hi"), overflowReply("native"), textReply("recovered")],
      [textReply("SUMMARY"), textReply("PREFIX")],
    );
    await h.session.prompt("hello");
    h.events.length = 0;
    await h.session.prompt(BIG_PROMPT);
    const sequence = h.eventTypes((type) => !type.startsWith("message_update") && type !== "message_start");
    expect(sequence).toEqual([
      "agent_start",
      "turn_start",
      "message_end",
      "message_end",
      "turn_end",
      "agent_end",
      "compaction_start",
      "session_compact",
      "compaction_end",
      "agent_start",
      "turn_start",
      "message_end",
      "turn_end",
      "agent_end",
      "agent_settled",
    ]);
  });

  it("stops with OVERFLOW_RECOVERY_FAILED when the retry overflows too, after exactly one compaction", async () => {
    const h = await createHarness({ api, settings });
    scriptReplies(
      h.server,
      [textReply("hi"), overflowReply("native"), overflowReply("native")],
      [textReply("SUMMARY"), textReply("PREFIX")],
    );
    await h.session.prompt("hello");
    const result = await h.session.prompt(BIG_PROMPT);
    expect(result.error?.code).toBe("OVERFLOW_RECOVERY_FAILED");
    expect(result.retried).toBe(true);
    expect(h.agentRequests()).toHaveLength(3);
    expect(h.eventTypes((type) => type === "compaction_start")).toHaveLength(1);
    expect(h.eventTypes((type) => type === "session_compact")).toHaveLength(1);
    expect(h.eventTypes((type) => type === "session_compact_failed")).toHaveLength(1);
    expect(h.events.filter((event) => event.type === "session_error")).toHaveLength(1);
    expect(roles(h).filter((role) => role === "compaction")).toHaveLength(1);
    expect(h.server.pending).toBe(0);
  });

  it("does not retry when the recovery compaction fails; the omission edit stays", async () => {
    const h = await createHarness({
      api,
      settings: { compaction: { ...settings.compaction, offlineFallback: false } },
    });
    scriptReplies(h.server, [textReply("hi"), overflowReply("native")], [serverErrorReply(500)]);
    await h.session.prompt("hello");
    const result = await h.session.prompt(BIG_PROMPT);
    expect(result.retried).toBe(false);
    expect(h.agentRequests()).toHaveLength(2);
    expect(h.summaryRequests()).toHaveLength(1);
    expect(roles(h)).toEqual(["user", "assistant", "user", "assistant", "context_edit"]);
    const failed = h.events.find((event) => event.type === "session_compact_failed");
    // willRetry: the aborted turn would have been retried had the compaction succeeded (seed 004).
    expect(failed).toMatchObject({
      reason: "overflow",
      aborted: false,
      willRetry: true,
      fromExtension: false,
    });
  });
});
