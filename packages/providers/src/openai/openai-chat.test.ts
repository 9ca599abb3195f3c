import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { collectEvents } from "../../test/support/collect-events";
import { useWireServer } from "../../test/support/use-wire-server";
import type { Message, Tool } from "../message";
import { defineModel } from "../model/define-model";
import { getModel } from "../model/model-catalog";
import { isContextOverflow } from "../overflow/is-context-overflow";
import { startWireServer } from "../testing/test-llm-server";
import {
  contentReply,
  overflowReply,
  rateLimitReply,
  rawStreamReply,
  serverErrorReply,
  textReply,
  toolCallReply,
} from "../testing/wire-replies";
import type { OverflowFlavor } from "../testing/wire-reply";
import { createOpenAIProvider } from "./openai-provider";

const KEY = "sk-proj-test-abcdefghijklmnop";
const gpt41 = { ...getModel("openai", "gpt-4.1"), api: "openai-chat" as const };
const hello: Message[] = [{ role: "user", content: "Hello", timestamp: 1 }];
const readTool: Tool = {
  name: "read_file",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" } } },
};

const wire = useWireServer(KEY);

function provider(overrides: Parameters<typeof createOpenAIProvider>[0] = {}) {
  return createOpenAIProvider({ apiKey: KEY, baseUrl: wire.server.openaiBaseUrl, env: {}, ...overrides });
}

const { lastBody } = wire;

describe("createOpenAIProvider (chat): responses", () => {
  it("streams text and reads usage with cached tokens", async () => {
    wire.server.enqueue(textReply("Hello from chat", { usage: { input: 100, cacheRead: 900, output: 20 } }));
    const result = await collectEvents(
      provider().stream({ model: gpt41, systemPrompt: "Be brief.", messages: hello }),
    );
    expect(result.types.slice(0, 2)).toEqual(["start", "text-start"]);
    expect(result.message.content).toEqual([{ type: "text", text: "Hello from chat" }]);
    expect(result.message.usage).toMatchObject({ input: 100, cacheRead: 900, output: 20, totalTokens: 1020 });
    expect(result.message.usage.cost.total).toBeCloseTo((100 * 2 + 900 * 0.5 + 20 * 8) / 1e6, 12);
    expect(wire.server.requests[0]?.path).toBe("/v1/chat/completions");
    expect(lastBody()).toMatchObject({
      model: "gpt-4.1",
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 32_768,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hello" },
      ],
    });
  });

  it("streams parallel-safe tool calls with JSON arguments in pieces", async () => {
    wire.server.enqueue(
      contentReply(
        [
          { type: "text", text: "Reading both." },
          { type: "tool-call", id: "call_a", name: "read_file", arguments: { path: "a.ts" } },
          { type: "tool-call", id: "call_b", name: "read_file", arguments: { path: "b.ts" } },
        ],
        { chunkSize: 3 },
      ),
    );
    const result = await collectEvents(
      provider().stream({ model: gpt41, messages: hello, tools: [readTool] }),
    );
    expect(result.message.stopReason).toBe("toolUse");
    expect(result.message.content).toEqual([
      { type: "text", text: "Reading both." },
      { type: "toolCall", id: "call_a", name: "read_file", arguments: { path: "a.ts" } },
      { type: "toolCall", id: "call_b", name: "read_file", arguments: { path: "b.ts" } },
    ]);
    expect(result.types.filter((type) => type === "toolcall-end")).toHaveLength(2);
    expect(lastBody().tools).toEqual([
      {
        type: "function",
        function: { name: "read_file", description: "Read a file", parameters: readTool.parameters },
      },
    ]);
  });

  it("turns reasoning_content from compatible servers into thinking", async () => {
    const local = defineModel({
      provider: "vllm",
      id: "qwen3-8b",
      baseUrl: wire.server.openaiBaseUrl,
      contextWindow: 32_768,
      reasoning: true,
    });
    wire.server.enqueue(
      contentReply([
        { type: "thinking", thinking: "Thinking hard." },
        { type: "text", text: "Done." },
      ]),
    );
    const result = await collectEvents(
      provider({ baseUrl: undefined }).stream({ model: local, messages: hello }, { reasoning: "high" }),
    );
    expect(result.message.content).toEqual([
      { type: "thinking", thinking: "Thinking hard." },
      { type: "text", text: "Done." },
    ]);
    // A compatible server gets the conservative request: system role, max_tokens, no reasoning_effort.
    expect(lastBody()).toMatchObject({ max_tokens: 16_384 });
    expect(lastBody().reasoning_effort).toBeUndefined();
  });

  it("sends reasoning effort, prompt cache key and 24h retention to OpenAI", async () => {
    wire.server.enqueue(textReply("ok"), textReply("ok"));
    const o4 = { ...getModel("openai", "o4-mini"), api: "openai-chat" as const };
    await collectEvents(
      provider().stream(
        { model: o4, systemPrompt: "sys", messages: hello },
        { reasoning: "minimal", sessionId: "session-1", cacheRetention: "long", temperature: 0.2 },
      ),
    );
    expect(lastBody()).toMatchObject({
      reasoning_effort: "low",
      prompt_cache_key: "session-1",
      prompt_cache_retention: "24h",
      messages: [
        { role: "developer", content: "sys" },
        { role: "user", content: "Hello" },
      ],
    });
    expect(lastBody().temperature).toBeUndefined();
    await collectEvents(
      provider().stream({ model: o4, messages: hello }, { sessionId: "session-1", cacheRetention: "none" }),
    );
    expect(lastBody().prompt_cache_key).toBeUndefined();
  });

  it("converts images, tool results and their images", async () => {
    wire.server.enqueue(textReply("ok"));
    const messages: Message[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "Look" },
          { type: "image", data: "AAAA", mimeType: "image/jpeg" },
        ],
        timestamp: 1,
      },
      {
        role: "assistant",
        content: [{ type: "toolCall", id: "call_1", name: "screenshot", arguments: {} }],
        api: "openai-chat",
        provider: "openai",
        model: "gpt-4.1",
        usage: {
          input: 0,
          output: 0,
          cacheRead: 0,
          cacheWrite: 0,
          totalTokens: 0,
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
        },
        stopReason: "toolUse",
        timestamp: 2,
      },
      {
        role: "toolResult",
        toolCallId: "call_1",
        toolName: "screenshot",
        content: [
          { type: "text", text: "captured" },
          { type: "image", data: "BBBB", mimeType: "image/png" },
        ],
        isError: false,
        timestamp: 3,
      },
    ];
    await collectEvents(provider().stream({ model: gpt41, messages }));
    const sent = lastBody().messages as Array<Record<string, unknown>>;
    expect(sent[0]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "Look" },
        { type: "image_url", image_url: { url: "data:image/jpeg;base64,AAAA" } },
      ],
    });
    expect(sent[1]).toMatchObject({
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_1", type: "function" }],
    });
    expect(sent[2]).toEqual({ role: "tool", tool_call_id: "call_1", content: "captured" });
    expect(sent[3]).toMatchObject({
      role: "user",
      content: [{ type: "text" }, { type: "image_url", image_url: { url: "data:image/png;base64,BBBB" } }],
    });
  });

  it("reads tool calls from servers that omit the index or send the name late", async () => {
    const chunk = (delta: unknown, finish: string | null = null) => ({
      id: "x",
      object: "chat.completion.chunk",
      created: 1,
      model: "local",
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    wire.server.enqueue(
      rawStreamReply([
        {
          data: chunk({
            tool_calls: [{ id: "a", type: "function", function: { name: "one", arguments: "{}" } }],
          }),
        },
        {
          data: chunk({
            tool_calls: [{ id: "b", type: "function", function: { name: "two", arguments: '{"k":1}' } }],
          }),
        },
        {
          data: chunk({
            tool_calls: [{ index: 5, id: "c", type: "function", function: { arguments: "{" } }],
          }),
        },
        { data: chunk({ tool_calls: [{ index: 5, function: { name: "three", arguments: "}" } }] }) },
        { data: chunk({}, "stop") },
        { data: "[DONE]" },
      ]),
    );
    const result = await collectEvents(provider().stream({ model: gpt41, messages: hello }));
    expect(result.message.content).toEqual([
      { type: "toolCall", id: "a", name: "one", arguments: {} },
      { type: "toolCall", id: "b", name: "two", arguments: { k: 1 } },
      { type: "toolCall", id: "c", name: "three", arguments: {} },
    ]);
    expect(result.message.stopReason).toBe("toolUse");
  });

  it("maps finish_reason length and content_filter", async () => {
    wire.server.enqueue(
      textReply("truncated", { stopReason: "length" }),
      textReply("filtered", { rawStopReason: "content_filter" }),
    );
    expect(
      (await collectEvents(provider().stream({ model: gpt41, messages: hello }))).message.stopReason,
    ).toBe("length");
    const filtered = await collectEvents(provider().stream({ model: gpt41, messages: hello }));
    expect(filtered.error?.code).toBe("PROVIDER_CONTENT_REFUSED");
  });
});

describe("createOpenAIProvider (chat): faults", () => {
  it("honours retry-after-ms on a 429", async () => {
    wire.server.enqueue(rateLimitReply({ retryAfterMs: 30 }), textReply("ok"));
    const result = await collectEvents(provider().stream({ model: gpt41, messages: hello }));
    const retry = result.events.find((event) => event.type === "retry");
    expect(retry?.type === "retry" && retry.delayMs).toBe(30);
    expect(result.message.stopReason).toBe("stop");
  });

  it("returns a server error after retries are exhausted", async () => {
    wire.server.enqueue(serverErrorReply(502), serverErrorReply(500));
    const result = await collectEvents(
      provider().stream({ model: gpt41, messages: hello }, { retry: { maxRetries: 1, baseDelayMs: 1 } }),
    );
    expect(result.error).toMatchObject({ code: "PROVIDER_SERVER_ERROR", status: 500 });
    expect(wire.server.requests).toHaveLength(2);
  });

  it.each<OverflowFlavor>(["native", "llama.cpp", "vllm", "ollama", "lm-studio"])(
    "classifies the %s overflow error",
    async (flavor) => {
      const local = defineModel({
        provider: "local",
        id: "m",
        baseUrl: wire.server.openaiBaseUrl,
        contextWindow: 4096,
      });
      wire.server.enqueue(overflowReply(flavor));
      const model = flavor === "native" ? gpt41 : local;
      const result = await collectEvents(provider().stream({ model, messages: hello }));
      expect(result.error?.code).toBe("PROVIDER_CONTEXT_OVERFLOW");
      expect(result.error?.status).toBe(400);
      expect(isContextOverflow(result.message)).toBe(true);
      // The raw body is read even where the SDK drops it (vLLM's and LM Studio's envelopes).
      expect(result.message.errorMessage).not.toContain("(no body)");
      expect(result.message.errorMessage).toMatch(/context|too long/i);
      expect(wire.server.requests).toHaveLength(1);
    },
  );

  it("maps an error chunk inside the stream and keeps the partial text", async () => {
    wire.server.enqueue(textReply("Some words before", { chunkSize: 5, errorAfterEvents: 3 }));
    const result = await collectEvents(provider().stream({ model: gpt41, messages: hello }));
    expect(result.error?.code).toBe("PROVIDER_SERVER_ERROR");
    expect(result.message.content).toEqual([{ type: "text", text: "Some words" }]);
  });

  it("never exposes a rejected key, even the masked echo", async () => {
    const wrongKey = "sk-proj-wrong-key-0000111122223333";
    const result = await collectEvents(
      provider({ apiKey: wrongKey }).stream({ model: gpt41, messages: hello }),
    );
    expect(result.error?.code).toBe("PROVIDER_AUTH_FAILED");
    expect(result.message.errorMessage).toContain("Incorrect API key provided");
    expect(result.message.errorMessage).not.toMatch(/sk-pr|333/);
    for (const text of [
      inspect(result.error, { depth: 8 }),
      JSON.stringify(result.events),
      JSON.stringify(wire.server.requests),
    ]) {
      expect(text).not.toContain(wrongKey);
    }
  });

  it("refuses a base URL with credentials in it, before any request and without the password", async () => {
    const baseUrl = wire.server.openaiBaseUrl.replace("http://", "http://me:hunter2-Secret9@");
    const result = await collectEvents(provider({ baseUrl }).stream({ model: gpt41, messages: hello }));
    expect(result.error?.code).toBe("PROVIDER_BAD_REQUEST");
    expect(result.message.errorMessage).toContain("has credentials in it");
    expect(inspect(result.error, { depth: 8 })).not.toContain("hunter2");
    expect(wire.server.requests).toHaveLength(0);
  });

  it("needs no key for a compatible server and sends a placeholder", async () => {
    const open = await startWireServer();
    try {
      open.enqueue(textReply("local"));
      const local = defineModel({
        provider: "ollama",
        id: "llama3.2",
        baseUrl: open.openaiBaseUrl,
        contextWindow: 8192,
      });
      const keyless = createOpenAIProvider({ env: {} });
      const { message } = await collectEvents(keyless.stream({ model: local, messages: hello }));
      expect(message.content).toEqual([{ type: "text", text: "local" }]);
      expect(open.requests[0]?.headers.authorization).toBe("Bearer [redacted]");
    } finally {
      await open.close();
    }
  });

  it("requires a key for the openai provider", async () => {
    const result = await collectEvents(
      createOpenAIProvider({ env: {} }).stream({ model: gpt41, messages: hello }),
    );
    expect(result.error).toMatchObject({ code: "PROVIDER_MISSING_API_KEY", envVar: "OPENAI_API_KEY" });
  });

  it("keeps partial tool call arguments when the stream is cut", async () => {
    wire.server.enqueue(
      toolCallReply("read_file", { path: "src/very/long/path.ts" }, { chunkSize: 6, cutAfterEvents: 4 }),
    );
    const result = await collectEvents(
      provider().stream({ model: gpt41, messages: hello }, { retry: { maxRetries: 0 } }),
    );
    expect(result.error?.code).toBe("PROVIDER_STREAM_INTERRUPTED");
    expect(result.message.content).toEqual([
      { type: "toolCall", id: "call_chatcmpl-1_0", name: "read_file", arguments: { path: "src" } },
    ]);
  });

  it("aborts a slow reply and keeps what arrived", async () => {
    wire.server.enqueue(textReply("one two three four five six", { chunkSize: 4, eventDelayMs: 15 }));
    const controller = new AbortController();
    let last: unknown;
    for await (const event of provider().stream(
      { model: gpt41, messages: hello },
      { signal: controller.signal },
    )) {
      if (event.type === "text-delta") controller.abort();
      last = event;
    }
    expect(last).toMatchObject({
      type: "error",
      error: { code: "PROVIDER_ABORTED" },
      message: { stopReason: "aborted", content: [{ type: "text", text: "one " }] },
    });
  });
});
