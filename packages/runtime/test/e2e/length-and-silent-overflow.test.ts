import fs from "node:fs";
import { textReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import { closeHarnesses, conversationText, createHarness, scriptReplies } from "../helpers/harness";

afterEach(closeHarnesses);

const settings = { compaction: { reserveTokens: 10_000, keepRecentTokens: 4000 } };

describe("recovery from other overflow shapes (Anthropic SDK)", () => {
  it("an early length stop (output below the model's maxTokens) leads to one compaction and one retry", async () => {
    const h = await createHarness({ settings, maxTokens: 1000 });
    scriptReplies(
      h.server,
      [
        textReply("hi"),
        textReply("a cut-off ans", { stopReason: "length", usage: { input: 15_000, output: 300 } }),
        textReply("the whole answer"),
      ],
      [textReply("SUMMARY"), textReply("PREFIX")],
    );
    await h.session.prompt("hello");
    const result = await h.session.prompt(`explain this ${"l".repeat(60_000)}`);
    expect(result.retried).toBe(true);
    expect(result.error).toBeUndefined();
    expect(result.lastAssistant?.content).toEqual([{ type: "text", text: "the whole answer" }]);
    expect(h.agentRequests()).toHaveLength(3);
    expect(h.eventTypes((type) => type === "compaction_start")).toHaveLength(1);
    const entries = h.fileEntries();
    const cut = entries.find(
      (entry) =>
        entry.type === "message" &&
        entry.message.role === "assistant" &&
        entry.message.stopReason === "length",
    );
    expect(entries.find((entry) => entry.type === "context_edit")).toMatchObject({
      targetId: cut?.id,
      replacement: null,
    });
    expect(conversationText(h.agentRequests()[2])).not.toContain("a cut-off ans");
  });

  it("a length stop that used the whole output budget is not retried", async () => {
    const h = await createHarness({ settings, maxTokens: 1000 });
    scriptReplies(h.server, [
      textReply("hi"),
      textReply("long", { stopReason: "length", usage: { input: 100, output: 1000 } }),
    ]);
    await h.session.prompt("hello");
    const result = await h.session.prompt("write a lot");
    expect(result.retried).toBe(false);
    expect(h.eventTypes((type) => type.startsWith("compaction"))).toEqual([]);
    // Not treated as a failed attempt: nothing is omitted (the compaction alone would be skipped here).
    expect(h.fileEntries().some((entry) => entry.type === "context_edit")).toBe(false);
    expect(h.agentRequests()).toHaveLength(2);
  });

  it("a successful response whose usage exceeds the window (silent overflow) compacts without a retry", async () => {
    const h = await createHarness({ settings });
    scriptReplies(
      h.server,
      [textReply("one"), textReply("two", { usage: { input: 41_000, output: 10 } })],
      [textReply("SUMMARY")],
    );
    await h.session.prompt(`first ${"a".repeat(60_000)}`);
    const result = await h.session.prompt(`second ${"b".repeat(60_000)}`);
    expect(result.retried).toBe(false);
    expect(h.events.find((event) => event.type === "compaction_start")).toEqual({
      type: "compaction_start",
      reason: "overflow",
      willRetry: false,
    });
    expect(h.agentRequests()).toHaveLength(2);
    expect(h.fileEntries().some((entry) => entry.type === "context_edit")).toBe(false);
  });

  it("abort() during a compaction cancels it: nothing written, aborted events", async () => {
    const h = await createHarness({ settings });
    scriptReplies(
      h.server,
      [textReply("one"), textReply("two")],
      [textReply("SLOW", { initialDelayMs: 2000 })],
    );
    await h.session.prompt(`first ${"a".repeat(40_000)}`);
    await h.session.prompt(`second ${"b".repeat(40_000)}`);
    const before = fs.readFileSync(h.file);
    const compacting = h.session.compact();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await h.session.abort();
    await expect(compacting).rejects.toMatchObject({ code: "COMPACTION_CANCELLED" });
    expect(fs.readFileSync(h.file).equals(before)).toBe(true);
    expect(h.events.find((event) => event.type === "session_compact_failed")).toEqual({
      type: "session_compact_failed",
      reason: "manual",
      aborted: true,
      willRetry: false,
      fromExtension: false,
    });
  });
});
