import { defineExtension } from "@arbor/extensions";
import { overflowReply, textReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentBeforeSettleEvent } from "../../src/events/boundary-events";
import type { RuntimeExtensionApi } from "../../src/extensions/runtime-extension-api";
import { closeHarnesses, conversationText, createHarness, scriptReplies } from "../helpers/harness";

afterEach(closeHarnesses);

const settler = (handler: (event: AgentBeforeSettleEvent) => unknown, seen: AgentBeforeSettleEvent[] = []) =>
  defineExtension<RuntimeExtensionApi>({
    apiVersion: 1,
    name: "settler",
    setup(api) {
      api.on("agent_before_settle", (event) => {
        seen.push(event);
        return handler(event) as never;
      });
    },
  });

const note = (text: string) => ({
  type: "custom_message" as const,
  customType: "note",
  content: text,
  display: true,
});

describe("agent_before_settle and agent_settled", () => {
  it("appends a custom_message and continues once; agent_settled comes last", async () => {
    const seen: AgentBeforeSettleEvent[] = [];
    const h = await createHarness({
      extensions: [
        settler(
          (event) =>
            seen.length === 1 ? { entries: [...event.entries, note("ONE MORE")], continue: true } : undefined,
          seen,
        ),
      ],
    });
    scriptReplies(h.server, [textReply("first"), textReply("second")]);
    const result = await h.session.prompt("hello");
    expect(result.error).toBeUndefined();
    expect(result.lastAssistant?.content).toEqual([{ type: "text", text: "second" }]);
    expect(h.agentRequests()).toHaveLength(2);
    expect(conversationText(h.agentRequests()[1])).toContain("ONE MORE");
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatchObject({
      type: "agent_before_settle",
      outcome: "completed",
      entries: [],
      continue: false,
    });
    expect(seen[0]?.context.canContinue).toBe(false);
    expect(h.eventTypes((type) => type.startsWith("agent_"))).toEqual([
      "agent_start",
      "agent_end",
      "agent_start",
      "agent_end",
      "agent_settled",
    ]);
    expect(h.events.at(-1)).toEqual({ type: "agent_settled", aborted: false });
    expect(h.fileEntries().map((entry) => entry.type)).toEqual([
      "message",
      "message",
      "custom_message",
      "message",
    ]);
  });

  it("sees the repaired projection after overflow recovery (seed 004)", async () => {
    const seen: AgentBeforeSettleEvent[] = [];
    const h = await createHarness({
      settings: { compaction: { reserveTokens: 10_000, keepRecentTokens: 4000 } },
      extensions: [settler(() => undefined, seen)],
    });
    scriptReplies(
      h.server,
      [textReply("hi"), overflowReply("native"), textReply("recovered")],
      [textReply("## Goal\nSUMMARY-HISTORY"), textReply("## Original Request\nSUMMARY-PREFIX")],
    );
    await h.session.prompt("hello");
    const result = await h.session.prompt(`Summarize the log below. ${"l".repeat(60_000)}`);
    expect(result.retried).toBe(true);
    const preview = seen.at(-1)?.context;
    if (preview === undefined) throw new Error("agent_before_settle did not fire");
    const text = JSON.stringify(preview.contextMessages);
    expect(preview.contextMessages[0]?.role).toBe("compactionSummary");
    expect(text).toContain("SUMMARY-HISTORY");
    expect(text).not.toContain("l".repeat(100));
    expect(text).not.toContain("prompt is too long");
    expect(JSON.stringify(preview.contextMessages.at(-1))).toContain("recovered");
    expect(preview.contextEntries.map((entry) => entry.sourceEntry.type)).toContain("compaction");
  });

  it("the loop guard bounds a handler that compacts and continues every time", async () => {
    let rounds = 0;
    const h = await createHarness({
      extensions: [
        settler((event) => {
          rounds++;
          return {
            entries: [
              ...event.entries,
              { type: "compaction", summary: `round ${rounds}`, firstKeptEntryId: null },
              note(`go on ${rounds}`),
            ],
            continue: true,
          };
        }),
      ],
    });
    scriptReplies(h.server, [textReply("a"), textReply("b"), textReply("c"), textReply("d"), textReply("e")]);
    const result = await h.session.prompt("hello");
    expect(result.error?.code).toBe("COMPACTION_LOOP_GUARD");
    expect(h.agentRequests()).toHaveLength(4);
    expect(h.eventTypes((type) => type === "session_error")).toHaveLength(1);
    const compactions = h.fileEntries().filter((entry) => entry.type === "compaction");
    expect(compactions).toHaveLength(4);
    expect(compactions[0]).toMatchObject({
      fromHook: true,
      summary: "round 1",
      tokensBefore: expect.any(Number),
    });
    expect(compactions[0]?.firstKeptEntryId).toBe(compactions[0]?.id);
    expect(h.events.at(-1)).toEqual({ type: "agent_settled", aborted: false });
  });

  it("the loop guard's cap comes from the settings file's compaction.maxConsecutiveAutoCompactions", async () => {
    const h = await createHarness({
      settings: { compaction: { maxConsecutiveAutoCompactions: 1 } },
      extensions: [
        settler((event) => ({
          entries: [
            ...event.entries,
            { type: "compaction", summary: "again", firstKeptEntryId: null },
            note("go on"),
          ],
          continue: true,
        })),
      ],
    });
    scriptReplies(h.server, [textReply("a"), textReply("b"), textReply("c")]);
    const result = await h.session.prompt("hello");
    expect(result.error?.code).toBe("COMPACTION_LOOP_GUARD");
    expect(h.agentRequests()).toHaveLength(2);
  });

  it("an aborted prompt skips agent_before_settle and settles with aborted: true", async () => {
    const seen: AgentBeforeSettleEvent[] = [];
    const h = await createHarness({
      extensions: [settler((event) => ({ entries: [...event.entries, note("late")], continue: true }), seen)],
    });
    scriptReplies(h.server, [
      textReply("a long answer that streams slowly", { eventDelayMs: 40, chunkSize: 2 }),
    ]);
    const running = h.session.prompt("talk");
    await new Promise((resolve) => setTimeout(resolve, 120));
    await h.session.abort();
    const result = await running;
    expect(result.stopReason).toBe("aborted");
    expect(h.agentRequests()).toHaveLength(1);
    expect(seen).toEqual([]);
    expect(h.events.at(-1)).toEqual({ type: "agent_settled", aborted: true });
    expect(h.fileEntries().some((entry) => entry.type === "custom_message")).toBe(false);
  });
});
