import { defineModel } from "@arbor/providers";
import { createScriptedProvider } from "@arbor/providers/testing";
import { describe, expect, it } from "vitest";
import { assistant, toolCall, toolResult, user } from "../internal/testing/messages";
import { generateSummary } from "./generate-summary";
import { fitConversation, fitSummaryMaxTokens } from "./request-summary";

const big = defineModel({
  id: "big",
  provider: "p",
  api: "anthropic-messages",
  contextWindow: 200_000,
  maxTokens: 64_000,
});
const small = defineModel({
  id: "small",
  provider: "p",
  api: "openai-chat",
  contextWindow: 32_768,
  maxTokens: 8192,
});

describe("fitSummaryMaxTokens", () => {
  it("keeps the model's limit when the window has room", () => {
    expect(fitSummaryMaxTokens(big, 35_000)).toBe(64_000);
    expect(fitSummaryMaxTokens(big, 35_000, 2000)).toBe(2000);
  });

  it("lowers the limit to what the prompt leaves, with a margin", () => {
    // 560k chars = 160k tokens: room = 200k − 160k − 24k = 16k < 32768, so min(32768, 200k − 160k − 4096).
    expect(fitSummaryMaxTokens(big, 560_000)).toBe(32_768);
    // 630k chars = 180k tokens: min(32768, 200k − 180k − 4096).
    expect(fitSummaryMaxTokens(big, 630_000)).toBe(200_000 - 180_000 - 4096);
    // 35k chars = 10k tokens on a 32k window: room = 32768 − 10000 − 4096, capped by maxTokens 8192.
    expect(fitSummaryMaxTokens(small, 35_000)).toBe(8192);
    expect(fitSummaryMaxTokens(small, 80_000)).toBe(32_768 - Math.ceil(80_000 / 3.5) - 4096);
  });

  it("never goes below 1", () => {
    expect(fitSummaryMaxTokens(small, 1_000_000)).toBe(1);
  });
});

describe("fitConversation", () => {
  it("keeps a conversation that fits", () => {
    expect(fitConversation("[User]: hi", small, 1000)).toBe("[User]: hi");
  });

  it("drops the oldest part of a conversation that does not fit, at a message boundary, and says so", () => {
    const parts = Array.from({ length: 400 }, (_, index) => `[User]: message ${index} ${"x".repeat(300)}`);
    const serialized = parts.join("\n\n");
    const fitted = fitConversation(serialized, small, 3000);
    expect(fitted.length).toBeLessThan(serialized.length);
    expect(fitted).toMatch(/^\[The first \d+ characters of the transcript were left out/);
    expect(fitted.endsWith(parts.at(-1) as string)).toBe(true);
    const firstKept = fitted.split("\n\n")[1];
    expect(firstKept?.startsWith("[User]: message ")).toBe(true);
    // The prompt then leaves room for an answer: input tokens (3.5 chars each) + 8192 + 4096 ≤ window.
    expect(Math.ceil((fitted.length + 3000) / 3.5) + 8192 + 4096).toBeLessThan(small.contextWindow);
  });
});

describe("generateSummary request options", () => {
  const messages = [
    user("Rename foo to bar"),
    assistant([toolCall("c", "edit", { path: "a.ts" })], { stopReason: "toolUse" }),
    toolResult("c", "edit", "ok"),
  ];

  it("sends reasoning only to reasoning models and never writes the prompt cache", async () => {
    const provider = createScriptedProvider([
      { content: [{ type: "text", text: "one" }] },
      { content: [{ type: "text", text: "two" }] },
    ]);
    const reasoningModel = { ...big, reasoning: true };
    await generateSummary(messages, {
      provider,
      model: reasoningModel,
      reasoning: "medium",
      sessionId: "fixed",
    });
    await generateSummary(messages, { provider, model: big, reasoning: "medium" });
    const [first, second] = provider.calls;
    expect(first?.options).toMatchObject({ reasoning: "medium", cacheRetention: "none", sessionId: "fixed" });
    expect(second?.options.reasoning).toBeUndefined();
    expect(second?.options.cacheRetention).toBe("none");
    expect(second?.options.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first?.request.tools).toBeUndefined();
    expect(first?.request.messages).toHaveLength(1);
  });
});
