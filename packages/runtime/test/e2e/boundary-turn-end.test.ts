import { defineExtension } from "@arbor/extensions";
import { textReply, toolCallReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import type { BoundaryContextPreview, TurnEndEvent } from "../../src/events/boundary-events";
import type { HookErrorNotice } from "../../src/events/session-events";
import type { RuntimeExtensionApi } from "../../src/extensions/runtime-extension-api";
import {
  bigReadTool,
  closeHarnesses,
  conversationText,
  createHarness,
  scriptReplies,
} from "../helpers/harness";

afterEach(closeHarnesses);

type Setup = RuntimeExtensionApi["on"];
const extension = (name: string, setup: (on: Setup) => void) =>
  defineExtension<RuntimeExtensionApi>({ apiVersion: 1, name, setup: (api) => setup(api.on) });

const hookErrors = (events: readonly { type: string }[]) =>
  events.filter((event): event is HookErrorNotice => event.type === "hook_error");

describe("turn_end boundary", () => {
  it("appends a masking context_edit before the next request; the preview equals that request", async () => {
    const seen: TurnEndEvent[] = [];
    let preview: BoundaryContextPreview | undefined;
    const masker = extension("masker", (on) =>
      on("turn_end", (event) => {
        seen.push(event);
        const drafts = event.toolResultEntryIds.map((targetId) => ({
          type: "context_edit" as const,
          targetId,
          replacement: { content: "[masked]" },
        }));
        return drafts.length === 0 ? undefined : { entries: [...event.entries, ...drafts] };
      }),
    );
    const observer = extension("observer", (on) =>
      on("turn_end", (event) => {
        if (event.turnIndex === 0) preview = event.context;
      }),
    );
    const h = await createHarness({ extensions: [masker, observer], tools: [bigReadTool(5000)] });
    scriptReplies(h.server, [toolCallReply("read", { path: "a.txt" }), textReply("done")]);
    await h.session.prompt("read a.txt");

    const entries = h.fileEntries();
    const assistant = entries[1];
    const toolResult = entries[2];
    expect(entries.map((entry) => entry.type)).toEqual([
      "message",
      "message",
      "message",
      "context_edit",
      "message",
    ]);
    expect(seen[0]).toMatchObject({
      type: "turn_end",
      turnIndex: 0,
      outcome: "completed",
      messageEntryId: assistant?.id,
      toolResultEntryIds: [toolResult?.id],
      entries: [],
      continue: false,
    });
    expect(entries[3]).toMatchObject({
      targetId: toolResult?.id,
      replacement: { content: [{ type: "text", text: "[masked]" }] },
    });
    const second = conversationText(h.agentRequests()[1]);
    expect(second).toContain("[masked]");
    expect(second).not.toContain("x".repeat(100));
    // The observer ran after the masker: its preview has the draft applied and is what was sent next.
    if (preview === undefined) throw new Error("no preview");
    expect(preview.canContinue).toBe(true);
    expect(preview.contextEntries.slice(0, 3).map((entry) => entry.sourceEntry.id)).toEqual(
      entries.slice(0, 3).map((entry) => entry.id),
    );
    expect(preview.contextEntries[3]?.sourceEntry).toMatchObject({
      type: "context_edit",
      targetId: toolResult?.id,
    });
    const sent = (h.agentRequests()[1]?.body as { messages?: unknown[] } | undefined)?.messages ?? [];
    expect(preview.llmMessages.filter((message) => message.role !== "system")).toHaveLength(sent.length);
    expect(JSON.stringify(preview.llmMessages.at(-1))).toContain("[masked]");
    expect(JSON.stringify(preview.contextMessages)).toContain("[masked]");
  });

  it("a bad draft is a hook_error naming the extension and nothing of its result is appended", async () => {
    const good = extension("good", (on) =>
      on("turn_end", (event) => ({
        entries: [...event.entries, { type: "custom" as const, customType: "kept" }],
      })),
    );
    const bad = extension("bad", (on) =>
      on("turn_end", (event) => ({
        entries: [
          ...event.entries,
          { type: "custom" as const, customType: "dropped" },
          { type: "context_edit" as const, targetId: "no-such-entry", replacement: null },
        ],
      })),
    );
    const shapeless = extension("shapeless", (on) =>
      on("turn_end", () => ({ entries: [{ type: "custom" } as never] })),
    );
    const h = await createHarness({ extensions: [good, bad, shapeless] });
    scriptReplies(h.server, [textReply("hi")]);
    await h.session.prompt("hello");
    const customs = h.fileEntries().filter((entry) => entry.type === "custom");
    expect(customs).toEqual([expect.objectContaining({ customType: "kept" })]);
    const errors = hookErrors(h.events);
    expect(errors.map((error) => [error.extensionId, error.hookName, error.error.code])).toEqual([
      ["bad", "turn_end", "HOOK_INVALID_RESULT"],
      ["shapeless", "turn_end", "HOOK_INVALID_RESULT"],
    ]);
    expect(errors[0]?.error.message).toContain("entries[2] (context_edit)");
    expect(errors[1]?.error.message).toContain("customType must be a non-empty string");
  });

  it("continue: true with a custom_message makes exactly one more request, once per boundary", async () => {
    let calls = 0;
    const nudge = (name: string) =>
      extension(name, (on) =>
        on("turn_end", (event) => {
          calls++;
          if (event.turnIndex > 0) return undefined;
          return {
            entries: [
              ...event.entries,
              {
                type: "custom_message" as const,
                customType: "nudge",
                content: `check your answer (${name})`,
                display: false,
              },
            ],
            continue: true,
          };
        }),
      );
    const h = await createHarness({ extensions: [nudge("one"), nudge("two")] });
    scriptReplies(h.server, [textReply("first"), textReply("second")]);
    const result = await h.session.prompt("hello");
    expect(result.error).toBeUndefined();
    expect(h.agentRequests()).toHaveLength(2);
    const second = conversationText(h.agentRequests()[1]);
    expect(second).toContain("check your answer (one)");
    expect(second).toContain("check your answer (two)");
    expect(calls).toBe(4);
    expect(
      h.fileEntries().map((entry) => (entry.type === "message" ? entry.message.role : entry.type)),
    ).toEqual(["user", "assistant", "custom_message", "custom_message", "assistant"]);
    expect(h.eventTypes((type) => type.startsWith("turn_") || type.startsWith("agent_"))).toEqual([
      "agent_start",
      "turn_start",
      "turn_end",
      "turn_start",
      "turn_end",
      "agent_end",
      "agent_settled",
    ]);
  });

  it("refuses continue when the context cannot continue (last message an assistant, nothing pending)", async () => {
    const pushy = extension("pushy", (on) => on("turn_end", () => ({ continue: true })));
    const h = await createHarness({ extensions: [pushy] });
    scriptReplies(h.server, [textReply("only")]);
    await h.session.prompt("hello");
    expect(h.agentRequests()).toHaveLength(1);
    const errors = hookErrors(h.events);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ extensionId: "pushy", hookName: "turn_end" });
    expect(errors[0]?.error.message).toContain("cannot continue");
  });
});
