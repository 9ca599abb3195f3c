/**
 * Live tests against the real APIs. They run only through `pnpm --filter @arbor/providers test:live`
 * and only for the providers whose key is set (ANTHROPIC_API_KEY, OPENAI_API_KEY); each request is
 * capped at a few dozen output tokens.
 */
import { describe, expect, it } from "vitest";
import { createAnthropicProvider } from "../anthropic/anthropic-provider";
import type { Message, Tool } from "../message";
import { getModel } from "../model/model-catalog";
import { createOpenAIProvider } from "../openai/openai-provider";
import { complete } from "../provider/complete";

const question: Message[] = [
  { role: "user", content: "Reply with the single word: pong", timestamp: Date.now() },
];
const clockTool: Tool = {
  name: "get_time",
  description: "Returns the current time. Always call it when asked for the time.",
  parameters: { type: "object", properties: { zone: { type: "string" } }, required: ["zone"] },
};
const askTime: Message[] = [
  { role: "user", content: "What time is it in UTC? Use the tool.", timestamp: Date.now() },
];

describe.skipIf(!process.env.ANTHROPIC_API_KEY)("Anthropic (live)", () => {
  const provider = createAnthropicProvider();
  const model = getModel("anthropic", "claude-haiku-4-5");

  it("answers with text and usage", async () => {
    const message = await complete(
      provider,
      { model, messages: question },
      { maxTokens: 32, cacheRetention: "none" },
    );
    expect(message.stopReason, message.errorMessage).toBe("stop");
    expect(JSON.stringify(message.content).toLowerCase()).toContain("pong");
    expect(message.usage.input).toBeGreaterThan(0);
  });

  it("calls a tool", async () => {
    const message = await complete(
      provider,
      { model, messages: askTime, tools: [clockTool] },
      { maxTokens: 128 },
    );
    expect(message.stopReason, message.errorMessage).toBe("toolUse");
    expect(message.content.find((block) => block.type === "toolCall")).toMatchObject({ name: "get_time" });
  });
});

describe.skipIf(!process.env.OPENAI_API_KEY)("OpenAI (live)", () => {
  const provider = createOpenAIProvider();

  it("answers over Chat Completions", async () => {
    const model = { ...getModel("openai", "gpt-4.1-mini"), api: "openai-chat" as const };
    const message = await complete(provider, { model, messages: question }, { maxTokens: 16 });
    expect(message.stopReason, message.errorMessage).toBe("stop");
    expect(JSON.stringify(message.content).toLowerCase()).toContain("pong");
  });

  it("answers over the Responses API with a tool call", async () => {
    const model = getModel("openai", "gpt-4.1-mini");
    const message = await complete(
      provider,
      { model, messages: askTime, tools: [clockTool] },
      { maxTokens: 128 },
    );
    expect(message.stopReason, message.errorMessage).toBe("toolUse");
  });
});
