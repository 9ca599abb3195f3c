import { type AgentMessage, convertToLlm } from "@arbor/agent-loop";
import { defineExtension } from "@arbor/extensions";
import { textReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import type { BoundaryContextPreview, TurnEndEvent } from "../../src/events/boundary-events";
import type { RuntimeExtensionApi } from "../../src/extensions/runtime-extension-api";
import { closeHarnesses, createHarness, scriptReplies } from "../helpers/harness";

afterEach(closeHarnesses);

/** The parts of a preview that do not depend on the run's clock. */
function shapeOf(preview: BoundaryContextPreview) {
  const text = (message: { content?: unknown }) =>
    typeof message.content === "string"
      ? message.content
      : (message.content as { text?: string }[]).map((block) => block.text ?? "?").join("");
  return {
    entries: preview.contextEntries.map((entry) => entry.sourceEntry.type),
    messages: preview.contextMessages.map((message) => `${message.role}: ${text(message as never)}`),
    llm: preview.llmMessages.map((message) => `${message.role}: ${text(message as never)}`),
    pending: preview.pendingMessages.length,
    canContinue: preview.canContinue,
  };
}

const turnEnds = (events: readonly { type: string }[]) =>
  events.filter((event): event is TurnEndEvent => event.type === "turn_end");

/** An extension that only looks at `turn_end` (its preview is then built at the boundary). */
const watcher = (seen: BoundaryContextPreview[]) =>
  defineExtension<RuntimeExtensionApi>({
    apiVersion: 1,
    name: "watcher",
    setup(api) {
      api.on("turn_end", (event) => {
        seen.push(event.context);
      });
    },
  });

describe("the boundary preview handlers get", () => {
  it("is each handler's own copy, its parts apart: a mutation reaches no one else", async () => {
    const apart: boolean[] = [];
    const keys: string[] = [];
    const written: number[] = [];
    const seen: ReturnType<typeof shapeOf>[] = [];
    const vandal = defineExtension<RuntimeExtensionApi>({
      apiVersion: 1,
      name: "vandal",
      setup(api) {
        api.on("turn_end", (event) => {
          const { context } = event;
          apart.push(
            context.contextMessages[0] !== context.llmMessages[0] &&
              context.contextEntries[0]?.messages[0] !== context.contextMessages[0],
          );
          keys.push(Object.keys(context).join(","));
          (context.contextMessages[0] as { content: unknown }).content = "CHANGED";
          context.llmMessages.length = 0;
          context.contextEntries.length = 0;
          context.pendingMessages.push({ role: "user", content: "x", timestamp: 1 });
          context.contextMessages = [];
          written.push(
            context.contextMessages.length,
            JSON.parse(JSON.stringify(context)).contextMessages.length,
          );
        });
      },
    });
    const reader = defineExtension<RuntimeExtensionApi>({
      apiVersion: 1,
      name: "reader",
      setup(api) {
        api.on("turn_end", (event) => {
          seen.push(shapeOf(event.context));
        });
      },
    });
    const h = await createHarness({ extensions: [vandal, reader] });
    scriptReplies(h.server, [textReply("first"), textReply("second")]);
    await h.session.prompt("hello");
    await h.session.prompt("again");
    expect(apart).toEqual([true, true]);
    // Read, written and serialized like plain properties, in a built preview's key order.
    expect(keys[0]).toBe("contextEntries,contextMessages,llmMessages,pendingMessages,canContinue");
    expect(written).toEqual([0, 0, 0, 0]);
    const untouched = {
      entries: ["message", "message"],
      messages: ["user: hello", "assistant: first"],
      llm: ["user: hello", "assistant: first"],
      pending: 0,
      canContinue: false,
    };
    expect(seen[0]).toEqual(untouched);
    const [turn] = turnEnds(h.events);
    expect(shapeOf(turn?.context as BoundaryContextPreview)).toEqual(untouched);
    // The listener's copy is not the session's either.
    (turn?.context.contextMessages[0] as { content: unknown }).content = "LISTENER";
    expect(JSON.stringify(h.session.store.getProjection().messages)).not.toMatch(/CHANGED|LISTENER/);
    expect(JSON.stringify(h.agentRequests()[1]?.body)).toContain("hello");
  });
});

describe("the boundary preview when no handler reads it", () => {
  it("is built when a listener reads it, as it was at its own boundary, even after later turns", async () => {
    // Listeners only (the harness subscribes one): the preview is made on first read.
    const h = await createHarness();
    scriptReplies(h.server, [textReply("first"), textReply("second")]);
    await h.session.prompt("hello");
    await h.session.prompt("again");
    const [one, two] = turnEnds(h.events);
    if (one === undefined || two === undefined) throw new Error("turn_end did not fire twice");
    // Read only now, after the second prompt: each still shows its own boundary.
    const early = shapeOf(one.context);
    const late = shapeOf(two.context);

    // The same script with a handler, which builds the preview at the boundary.
    const seen: BoundaryContextPreview[] = [];
    const eager = await createHarness({ extensions: [watcher(seen)] });
    scriptReplies(eager.server, [textReply("first"), textReply("second")]);
    await eager.session.prompt("hello");
    await eager.session.prompt("again");
    expect(seen).toHaveLength(2);
    expect(early).toEqual(shapeOf(seen[0] as BoundaryContextPreview));
    expect(late).toEqual(shapeOf(seen[1] as BoundaryContextPreview));
    expect(early.messages).toEqual(["user: hello", "assistant: first"]);
    expect(late.messages).toHaveLength(4);
    expect(early.canContinue).toBe(false);

    // Read twice, the same object; the listener's copy is its own.
    expect(one.context).toBe(one.context);
    (one.context.contextMessages[0] as { content: unknown }).content = "CHANGED";
    expect(JSON.stringify(h.session.store.getProjection().messages)).not.toContain("CHANGED");
    // Spread and JSON see it like a plain property.
    expect(shapeOf({ ...one }.context)).toEqual({ ...early, messages: ["user: CHANGED", early.messages[1]] });
    expect(JSON.parse(JSON.stringify(two)).context.contextMessages).toHaveLength(4);
  });

  it("is not built when nobody can read it, and uses the session's convertToLlm when it is", async () => {
    const calls: number[] = [];
    const h = await createHarness({
      // Asynchronous, as the option allows: the preview a listener may read is built at the boundary.
      convertToLlm: async (messages: readonly AgentMessage[]) => {
        calls.push(messages.length);
        return convertToLlm(messages).map((message) =>
          message.role === "user" ? { ...message, content: "[converted]" } : message,
        );
      },
    });
    scriptReplies(h.server, [textReply("first")]);
    await h.session.prompt("hello");
    // One request, one `turn_end` preview (the harness listens); `agent_before_settle` has no
    // handler, so its preview is never made.
    expect(calls).toEqual([1, 2]);
    const [turn] = turnEnds(h.events);
    expect(turn?.context.llmMessages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(turn?.context.llmMessages[0]?.content).toBe("[converted]");
  });
});
