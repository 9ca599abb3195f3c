import { overflowReply, textReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  closeHarnesses,
  conversationText,
  createHarness,
  readFileEntries,
  scriptReplies,
} from "../helpers/harness";

afterEach(closeHarnesses);

const settings = { compaction: { reserveTokens: 10_000, keepRecentTokens: 4000 } };

describe("session API for a terminal UI", () => {
  it("getContextUsage follows provider usage, is unknown right after a compaction, and known again after a response", async () => {
    const h = await createHarness({ settings });
    scriptReplies(
      h.server,
      [
        textReply("one", { usage: { input: 10_000, output: 50 } }),
        textReply("two", { usage: { input: 20_000, output: 50 } }),
        textReply("three", { usage: { input: 500, output: 20 } }),
      ],
      [textReply("SUMMARY")],
    );
    await h.session.prompt(`first ${"a".repeat(40_000)}`);
    await h.session.prompt(`second ${"b".repeat(40_000)}`);
    expect(h.session.getContextUsage()).toEqual({
      tokens: 20_050,
      contextWindow: 40_000,
      percent: (20_050 / 40_000) * 100,
      threshold: 30_000,
    });
    await h.session.compact();
    expect(h.session.getContextUsage()).toMatchObject({ tokens: null, percent: null, threshold: 30_000 });
    await h.session.prompt("third");
    expect(h.session.getContextUsage()?.tokens).toBe(520);
  });

  it("compacts before a new prompt when the last response is over the (new, smaller) model's threshold", async () => {
    const h = await createHarness({ settings });
    scriptReplies(
      h.server,
      [
        textReply("one", { usage: { input: 10_000, output: 50 } }),
        textReply("two", { usage: { input: 20_000, output: 50 } }),
        textReply("three"),
      ],
      [textReply("PRE-PROMPT SUMMARY")],
    );
    await h.session.prompt(`first ${"a".repeat(40_000)}`);
    await h.session.prompt(`second ${"b".repeat(40_000)}`);
    expect(h.eventTypes((type) => type === "compaction_start")).toHaveLength(0);
    await h.session.setModel({ ...h.model, id: "claude-small", contextWindow: 25_000 });
    h.events.length = 0;
    await h.session.prompt("third");
    expect(h.eventTypes((type) => !type.startsWith("message"))).toEqual([
      "compaction_start",
      "session_compact",
      "compaction_end",
      "agent_start",
      "turn_start",
      "turn_end",
      "agent_end",
      "agent_settled",
    ]);
    const sent = conversationText(h.agentRequests()[2]);
    expect(sent).toContain("PRE-PROMPT SUMMARY");
    expect(sent).not.toContain("a".repeat(100));
  });

  it("getSessionStats counts entries, messages, tokens and cost", async () => {
    const h = await createHarness();
    scriptReplies(h.server, [
      textReply("one", { usage: { input: 1000, output: 100 } }),
      textReply("two", { usage: { input: 2000, output: 200 } }),
    ]);
    await h.session.prompt("first");
    await h.session.prompt("second");
    const stats = h.session.getSessionStats();
    expect(stats).toMatchObject({
      sessionFile: h.file,
      entries: 4,
      branchEntries: 4,
      userMessages: 2,
      assistantMessages: 2,
      toolCalls: 0,
      compactions: 0,
      tokens: { input: 3000, output: 300, cacheRead: 0, cacheWrite: 0, total: 3300 },
    });
    // $3 / M input and $15 / M output (the harness model's prices).
    expect(stats.cost).toBeCloseTo((3000 * 3 + 300 * 15) / 1_000_000, 10);
  });

  it("with compaction.enabled false, an overflow is neither compacted nor retried", async () => {
    const h = await createHarness({ settings: { compaction: { ...settings.compaction, enabled: false } } });
    scriptReplies(h.server, [textReply("one"), overflowReply("native")]);
    await h.session.prompt("first");
    const result = await h.session.prompt(`second ${"b".repeat(60_000)}`);
    expect(result.retried).toBe(false);
    expect(result.lastAssistant?.stopReason).toBe("error");
    expect(h.eventTypes((type) => type.startsWith("compaction"))).toEqual([]);
    expect(h.fileEntries().some((entry) => entry.type === "context_edit")).toBe(false);
  });

  it("fork: a new session file from before a user message, with its text; this one unchanged", async () => {
    const h = await createHarness();
    scriptReplies(h.server, [textReply("one"), textReply("two"), textReply("forked answer")]);
    await h.session.prompt("first");
    await h.session.prompt("second");
    const entries = h.fileEntries();
    const { session, store, selectedText } = await h.session.fork({ entryId: entries[2]?.id as string });
    try {
      expect(selectedText).toBe("second");
      expect(store.path).not.toBe(h.file);
      expect(store.header.parentSession).toBe(h.file);
      await session.prompt("another second");
      const forked = readFileEntries(store.path as string).map((entry) =>
        entry.type === "message" && entry.message.role === "user"
          ? JSON.stringify(entry.message.content)
          : entry.type,
      );
      expect(forked).toHaveLength(4);
      expect(forked[2]).toContain("another second");
      expect(h.fileEntries()).toEqual(entries);
    } finally {
      await session.dispose();
      store.close();
    }
  });

  it("events() iterates the same events as subscribe()", async () => {
    const h = await createHarness();
    scriptReplies(h.server, [textReply("one")]);
    const iterator = h.session.events();
    const done = h.session.prompt("first");
    const types: string[] = [];
    for await (const event of iterator) {
      if (event.type === "message_update") continue;
      types.push(event.type);
      if (event.type === "agent_settled") break;
    }
    await done;
    expect(types).toEqual(h.eventTypes((type) => type !== "message_update"));
  });

  it("dispose() makes the session unusable and uninstalls extensions", async () => {
    const h = await createHarness();
    await h.session.dispose();
    await expect(h.session.prompt("x")).rejects.toMatchObject({ code: "SESSION_DISPOSED" });
    expect(() => h.session.steer("x")).toThrow(expect.objectContaining({ code: "SESSION_DISPOSED" }));
  });
});
