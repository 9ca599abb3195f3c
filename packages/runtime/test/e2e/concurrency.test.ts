import { defineExtension } from "@arbor/extensions";
import { textReply } from "@arbor/providers/testing";
import type { SessionEntry } from "@arbor/session-store";
import { afterEach, describe, expect, it } from "vitest";
import type { RuntimeExtensionApi } from "../../src/extensions/runtime-extension-api";
import type { AgentSession } from "../../src/session/agent-session";
import { closeHarnesses, createHarness, scriptReplies } from "../helpers/harness";

afterEach(closeHarnesses);

const settings = { compaction: { reserveTokens: 10_000, keepRecentTokens: 4000 } };

async function threeTurns(options: Parameters<typeof createHarness>[0] = {}) {
  const h = await createHarness({ settings, ...options });
  return h;
}

describe("operations on one session", () => {
  it("a navigation requested during a compaction waits for it: they never write at the same time", async () => {
    const h = await threeTurns();
    scriptReplies(
      h.server,
      [textReply("one"), textReply("two")],
      [textReply("SLOW SUMMARY", { initialDelayMs: 100 }), textReply("BRANCH")],
    );
    await h.session.prompt(`first ${"a".repeat(40_000)}`);
    await h.session.prompt(`second ${"b".repeat(40_000)}`);
    const [u1, a1] = h.fileEntries() as [SessionEntry, SessionEntry];
    const compacting = h.session.compact();
    const navigating = h.session.navigate(a1.id, { summarize: true });
    const [compaction, navigation] = await Promise.all([compacting, navigating]);

    const order = h.eventTypes((type) =>
      ["compaction_start", "compaction_end", "session_tree"].includes(type),
    );
    expect(order).toEqual(["compaction_start", "compaction_end", "session_tree"]);
    const entries = h.fileEntries();
    const compactionEntry = entries.find((entry) => entry.id === compaction.entryId);
    expect(compactionEntry?.parentId).toBe(entries[3]?.id);
    // The branch summary of the navigation covers the compaction written just before it.
    expect(navigation.summaryEntry).toMatchObject({ parentId: a1.id, fromId: compaction.entryId });
    expect(u1.type).toBe("message");
  });

  it("refuses a second prompt while one runs (SESSION_BUSY) and queues follow-ups instead", async () => {
    const h = await threeTurns();
    scriptReplies(h.server, [
      textReply("slow answer", { initialDelayMs: 80 }),
      textReply("follow-up answer"),
    ]);
    const running = h.session.prompt("first");
    expect(h.session.isRunning).toBe(true);
    await expect(h.session.prompt("second")).rejects.toMatchObject({ code: "SESSION_BUSY" });
    h.session.followUp("and then this");
    const result = await running;
    expect(result.lastAssistant?.content).toEqual([{ type: "text", text: "follow-up answer" }]);
    const users = h
      .fileEntries()
      .flatMap((entry) =>
        entry.type === "message" && entry.message.role === "user"
          ? [JSON.stringify(entry.message.content)]
          : [],
      );
    expect(users).toEqual([
      JSON.stringify([{ type: "text", text: "first" }]),
      JSON.stringify([{ type: "text", text: "and then this" }]),
    ]);
  });

  it("abort() stops a streaming response; the aborted message is kept", async () => {
    const h = await threeTurns();
    scriptReplies(h.server, [
      textReply("a long answer that streams slowly", { eventDelayMs: 40, chunkSize: 2 }),
    ]);
    const running = h.session.prompt("talk");
    await new Promise((resolve) => setTimeout(resolve, 120));
    await h.session.abort();
    const result = await running;
    expect(result.stopReason).toBe("aborted");
    const last = h.fileEntries().at(-1);
    expect(last?.type === "message" && last.message.role === "assistant" && last.message.stopReason).toBe(
      "aborted",
    );
    expect(h.session.activity).toBeUndefined();
  });

  it("a session method called from inside an operation fails fast instead of deadlocking", async () => {
    let session: AgentSession | undefined;
    const errors: unknown[] = [];
    const reentrant = defineExtension<RuntimeExtensionApi>({
      apiVersion: 1,
      name: "reentrant",
      setup(api) {
        api.on("turn_end", async () => {
          await session?.compact().catch((error: unknown) => errors.push(error));
          await session?.navigate("whatever").catch((error: unknown) => errors.push(error));
        });
      },
    });
    const h = await threeTurns({ extensions: [reentrant] });
    session = h.session;
    scriptReplies(h.server, [textReply("ok")]);
    const result = await h.session.prompt("hi");
    expect(result.stopReason).toBe("stop");
    expect(errors.map((error) => (error as { code: string }).code)).toEqual(["SESSION_BUSY", "SESSION_BUSY"]);
  });

  it("setModel appends a model_change entry and later requests use the new model", async () => {
    const h = await threeTurns();
    scriptReplies(h.server, [textReply("one"), textReply("two")]);
    await h.session.prompt("first");
    await h.session.setModel({ ...h.model, id: "claude-other" });
    await h.session.prompt("second");
    const models = h.agentRequests().map((request) => (request.body as { model: string }).model);
    expect(models).toEqual(["claude-test", "claude-other"]);
    expect(h.fileEntries()[2]).toMatchObject({
      type: "model_change",
      provider: "anthropic",
      modelId: "claude-other",
    });
    expect(h.events.find((event) => event.type === "model_select")).toEqual({
      type: "model_select",
      model: { ...h.model, id: "claude-other" },
      previousModel: h.model,
      source: "set",
    });
  });
});
