import { describe, expect, it } from "vitest";
import { collectEvents } from "../../test/support/collect-events";
import { ArborError } from "../errors/arbor-error";
import type { Message } from "../message";
import { defineModel } from "../model/define-model";
import { isContextOverflow } from "../overflow/is-context-overflow";
import { complete } from "../provider/complete";
import { createScriptedProvider } from "./scripted-provider";

const model = defineModel({ provider: "scripted", id: "m", contextWindow: 1000 });
const messages: Message[] = [{ role: "user", content: "hi", timestamp: 1 }];

describe("createScriptedProvider", () => {
  it("plays responses with the same events as a real adapter and records calls", async () => {
    const provider = createScriptedProvider([
      {
        content: [
          { type: "thinking", thinking: "hmm", thinkingSignature: "s" },
          { type: "text", text: "Hello there" },
          { type: "toolCall", id: "c1", name: "read", arguments: { path: "a" } },
        ],
        usage: { input: 10, output: 4 },
        chunkSize: 5,
      },
    ]);
    const result = await collectEvents(
      provider.stream({ model, messages }, { apiKey: "secret", maxTokens: 5 }),
    );
    expect(result.types).toEqual([
      "start",
      "thinking-start",
      "thinking-delta",
      "thinking-end",
      "text-start",
      "text-delta",
      "text-delta",
      "text-delta",
      "text-end",
      "toolcall-start",
      "toolcall-delta",
      "toolcall-delta",
      "toolcall-delta",
      "toolcall-end",
      "done",
    ]);
    expect(result.message).toMatchObject({
      stopReason: "toolUse",
      usage: { input: 10, output: 4, totalTokens: 14 },
    });
    expect(result.message.content[2]).toEqual({
      type: "toolCall",
      id: "c1",
      name: "read",
      arguments: { path: "a" },
    });
    expect(provider.calls[0]?.options).toEqual({ maxTokens: 5, hasSignal: false, hasApiKey: true });
    expect(JSON.stringify(provider.calls)).not.toContain("secret");
    expect(provider.remaining).toBe(0);
  });

  it("ends faults with an error event, keeping partial content", async () => {
    const provider = createScriptedProvider([
      { error: "PROVIDER_CONTEXT_OVERFLOW", partial: [{ type: "text", text: "start of" }] },
      { error: "PROVIDER_RATE_LIMITED", retryAfterMs: 1500 },
    ]);
    const overflow = await collectEvents(provider.stream({ model, messages }));
    expect(overflow.message.content).toEqual([{ type: "text", text: "start of" }]);
    expect(isContextOverflow(overflow.message)).toBe(true);
    const limited = await collectEvents(provider.stream({ model, messages }));
    expect(limited.error).toMatchObject({ code: "PROVIDER_RATE_LIMITED", retryAfterMs: 1500 });
  });

  it("aborts between events", async () => {
    const provider = createScriptedProvider([
      { content: [{ type: "text", text: "abcdefgh" }], chunkSize: 2, eventDelayMs: 5 },
    ]);
    const controller = new AbortController();
    const events = [];
    for await (const event of provider.stream({ model, messages }, { signal: controller.signal })) {
      events.push(event);
      if (event.type === "text-delta") controller.abort();
    }
    expect(events[events.length - 1]).toMatchObject({
      type: "error",
      message: { stopReason: "aborted", content: [{ text: "ab" }] },
    });
  });

  it("answers with functions of the request, and throws when the script runs out", async () => {
    const provider = createScriptedProvider([
      (request) => ({ content: [{ type: "text", text: `${request.messages.length} message(s)` }] }),
    ]);
    expect((await complete(provider, { model, messages })).content).toEqual([
      { type: "text", text: "1 message(s)" },
    ]);
    expect(() => provider.stream({ model, messages })).toThrow(ArborError);
    provider.push({ content: [] });
    expect((await complete(provider, { model, messages })).stopReason).toBe("stop");
  });
});
