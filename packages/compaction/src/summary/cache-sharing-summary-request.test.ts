/**
 * Cache-sharing summaries: the request starts with the agent's own conversation. The wire tests send
 * the conversation's request and then the summary through the official SDKs to the local wire server,
 * and compare the two bodies.
 */
import { type AssistantMessage, defineModel, type Message, type Model, type Tool } from "@arbor/providers";
import { createAnthropicProvider } from "@arbor/providers/anthropic";
import { createOpenAIProvider } from "@arbor/providers/openai";
import { startWireServer, type TestLlmServer, textReply } from "@arbor/providers/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadFixture } from "../internal/testing/load-fixture";
import { prepareCompaction } from "../prepare/prepare-compaction";
import { cacheSharingSummaryRequest, type SummaryConversation } from "./cache-sharing-summary-request";
import { compact } from "./compact";
import { CACHE_SHARING_SUMMARY_PROMPT, SUMMARY_SYSTEM_PROMPT } from "./summary-prompts";

const KEY = "sk-test-compaction-0123456789";
const claude: Model = defineModel({
  id: "claude-test",
  provider: "anthropic",
  api: "anthropic-messages",
  contextWindow: 200_000,
  maxTokens: 64_000,
});
const gpt: Model = defineModel({
  id: "gpt-test",
  provider: "openai",
  api: "openai-chat",
  contextWindow: 128_000,
  maxTokens: 16_384,
});

let server: TestLlmServer;
beforeEach(async () => {
  server = await startWireServer({ apiKey: KEY });
});
afterEach(async () => {
  await server.close();
});

const usage = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const tools: Tool[] = [{ name: "read", description: "read a file", parameters: { type: "object" } }];
const systemPrompt = "You are a coding agent. Be brief.";
/** The agent's last request: a prompt, a tool call and its result. */
const requestMessages: Message[] = [
  { role: "user", content: "fix the date parser in src/date.ts", timestamp: 1 },
  {
    role: "assistant",
    content: [{ type: "toolCall", id: "toolu_1", name: "read", arguments: { path: "src/date.ts" } }],
    api: claude.api,
    provider: claude.provider,
    model: claude.id,
    usage,
    stopReason: "toolUse",
    timestamp: 2,
  } as AssistantMessage,
  {
    role: "toolResult",
    toolCallId: "toolu_1",
    toolName: "read",
    content: [{ type: "text", text: "export function parse() {}" }],
    isError: false,
    timestamp: 3,
  },
];
/** The answer to that request (the turn's end). */
const answer = {
  role: "assistant",
  content: [{ type: "text", text: "parse() is empty; I will implement it." }],
  api: claude.api,
  provider: claude.provider,
  model: claude.id,
  usage,
  stopReason: "stop",
  timestamp: 4,
} as AssistantMessage;
const conversation: SummaryConversation = {
  systemPrompt,
  tools,
  messages: [...requestMessages, answer],
  cachedThrough: requestMessages.length - 1,
};

function preparation() {
  const prepared = prepareCompaction(loadFixture("coding-session.jsonl").branch("usr00003"), {
    enabled: true,
    reserveTokens: 16384,
    keepRecentTokens: 0,
  });
  if (!prepared) throw new Error("nothing to compact");
  return prepared;
}

type Body = { system?: unknown; tools?: unknown; messages: unknown[]; max_tokens?: number };
const bodyAt = (index: number) => server.requests[index]?.body as Body;

describe("cacheSharingSummaryRequest", () => {
  it("is the conversation plus one instruction, anchored where the last request ended", () => {
    const shared = cacheSharingSummaryRequest(conversation, claude, "focus on the parser");
    expect(shared?.request.systemPrompt).toBe(systemPrompt);
    expect(shared?.request.tools).toBe(tools);
    expect(shared?.request.messages.slice(0, 4)).toEqual(conversation.messages);
    const last = shared?.request.messages.at(-1);
    expect(last?.role).toBe("user");
    expect(JSON.stringify(last?.content)).toContain("focus on the parser");
    expect(shared?.request.cacheAnchor).toBe(2);
    expect(shared?.maxTokens).toBe(64_000);
    expect(conversation.messages).toHaveLength(4);
  });

  it("leaves the answer the room the window has; undefined when there is not enough", () => {
    const small = { ...claude, contextWindow: 4000 };
    const fits = cacheSharingSummaryRequest(conversation, small);
    expect(fits?.maxTokens).toBeLessThan(4000 - 1024 - CACHE_SHARING_SUMMARY_PROMPT.length / 3.5 + 1);
    expect(fits?.maxTokens).toBeGreaterThanOrEqual(1024);
    const big: SummaryConversation = {
      ...conversation,
      messages: [...conversation.messages, { role: "user", content: "x".repeat(10_000), timestamp: 5 }],
    };
    expect(cacheSharingSummaryRequest(big, small)).toBeUndefined();
  });
});

describe("compact with a conversation (cache-sharing summary)", () => {
  it("Anthropic: the summary body starts with the last request's body, breakpoints included, and reports cache reads", async () => {
    const provider = createAnthropicProvider({ apiKey: KEY, baseUrl: server.anthropicBaseUrl, env: {} });
    server.enqueue(textReply("parse() is empty; I will implement it."));
    for await (const _event of provider.stream({
      model: claude,
      systemPrompt,
      tools,
      messages: requestMessages,
    })) {
      // drain
    }
    server.enqueue(
      textReply("## Goal\nImplement parse().", {
        usage: { input: 40, cacheRead: 1500, cacheWrite: 300, output: 120 },
      }),
    );
    const result = await compact(preparation(), { provider, model: claude, conversation });
    expect(server.requests).toHaveLength(2);
    const before = bodyAt(0);
    const summary = bodyAt(1);
    // Same system prompt and tools, cache_control markers included.
    expect(summary.system).toEqual(before.system);
    expect(summary.tools).toEqual(before.tools);
    expect(JSON.stringify(summary.system)).not.toContain(SUMMARY_SYSTEM_PROMPT.slice(0, 40));
    // The messages of the last request, byte for byte (its last block keeps its breakpoint) ...
    expect(summary.messages.slice(0, before.messages.length)).toEqual(before.messages);
    expect(JSON.stringify(before.messages.at(-1))).toContain("cache_control");
    // ... then the answer and the instruction (the last breakpoint).
    expect(summary.messages).toHaveLength(before.messages.length + 2);
    expect(JSON.stringify(summary.messages.at(-1))).toContain("checkpoint");
    expect(JSON.stringify(summary.messages.at(-1))).toContain("cache_control");
    expect(result.summary).toContain("Implement parse().");
    expect(result.summarizer).toBe("model");
    expect(result.usage).toMatchObject({ input: 40, cacheRead: 1500, cacheWrite: 300, output: 120 });
  });

  it("OpenAI: the summary's messages start with the last request's (automatic prefix caching); cached tokens are reported", async () => {
    const provider = createOpenAIProvider({ apiKey: KEY, baseUrl: server.openaiBaseUrl, env: {} });
    const openaiMessages = requestMessages.map((message) =>
      message.role === "assistant"
        ? { ...message, api: gpt.api, provider: gpt.provider, model: gpt.id }
        : message,
    );
    server.enqueue(textReply("ok"));
    for await (const _event of provider.stream({
      model: gpt,
      systemPrompt,
      tools,
      messages: openaiMessages,
    })) {
      // drain
    }
    server.enqueue(
      textReply("## Goal\nImplement parse().", { usage: { input: 40, cacheRead: 1024, output: 90 } }),
    );
    const result = await compact(preparation(), {
      provider,
      model: gpt,
      conversation: {
        ...conversation,
        messages: [...openaiMessages, { ...answer, api: gpt.api, provider: gpt.provider, model: gpt.id }],
      },
    });
    const before = bodyAt(0);
    const summary = bodyAt(1);
    expect(summary.tools).toEqual(before.tools);
    expect(summary.messages.slice(0, before.messages.length)).toEqual(before.messages);
    expect(summary.messages).toHaveLength(before.messages.length + 2);
    // The same routing (no made-up prompt_cache_key that would send it to another cache).
    expect((summary as { prompt_cache_key?: string }).prompt_cache_key).toBe(
      (before as { prompt_cache_key?: string }).prompt_cache_key,
    );
    expect(result.usage).toMatchObject({ input: 40, cacheRead: 1024, output: 90 });
  });

  it("without a conversation (pi's shape): a fresh request with the summary system prompt and no cache", async () => {
    const provider = createAnthropicProvider({ apiKey: KEY, baseUrl: server.anthropicBaseUrl, env: {} });
    server.enqueue(textReply("## Goal\nFresh."));
    await compact(preparation(), { provider, model: claude });
    const body = bodyAt(0);
    expect(JSON.stringify(body.system)).toContain(SUMMARY_SYSTEM_PROMPT.slice(0, 40));
    expect(body.tools).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain("cache_control");
  });
});
