import { inspect } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { collectEvents } from "../../test/support/collect-events";
import { useWireServer } from "../../test/support/use-wire-server";
import { ArborError } from "../errors/arbor-error";
import type { Message, Tool } from "../message";
import { getModel } from "../model/model-catalog";
import { isContextOverflow } from "../overflow/is-context-overflow";
import type { StreamOptions } from "../provider/provider";
import {
  contentReply,
  errorReply,
  overflowReply,
  rateLimitReply,
  rawStreamReply,
  serverErrorReply,
  textReply,
  toolCallReply,
} from "../testing/wire-replies";
import { createAnthropicProvider } from "./anthropic-provider";

const KEY = "sk-ant-test-0123456789abcdef";
const haiku = getModel("anthropic", "claude-haiku-4-5");
const hello: Message[] = [{ role: "user", content: "Hello", timestamp: 1 }];
const readTool: Tool = {
  name: "read_file",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};
const noRetry: StreamOptions = { retry: { maxRetries: 0 } };

const wire = useWireServer(KEY);

function provider(overrides: Parameters<typeof createAnthropicProvider>[0] = {}) {
  return createAnthropicProvider({
    apiKey: KEY,
    baseUrl: wire.server.anthropicBaseUrl,
    env: {},
    ...overrides,
  });
}

const { lastBody } = wire;

describe("createAnthropicProvider: responses", () => {
  it("streams text through the SDK and prices the usage", async () => {
    wire.server.enqueue(textReply("Hello from the wire server", { usage: { input: 1000, output: 200 } }));
    const result = await collectEvents(provider().stream({ model: haiku, messages: hello }));
    expect(result.types[1]).toBe("text-start");
    expect(result.types.filter((type) => type === "text-delta").length).toBeGreaterThan(2);
    expect(result.types.slice(-2)).toEqual(["text-end", "done"]);
    expect(result.message.content).toEqual([{ type: "text", text: "Hello from the wire server" }]);
    expect(result.message).toMatchObject({ stopReason: "stop", responseId: "msg_1", provider: "anthropic" });
    expect(result.message.usage).toMatchObject({ input: 1000, output: 200, totalTokens: 1200 });
    expect(result.message.usage.cost.total).toBeCloseTo((1000 * 1 + 200 * 5) / 1e6, 12);
    expect(wire.server.requests[0]?.path).toBe("/v1/messages");
    expect(wire.server.requests[0]?.headers.authorization).toBe("Bearer [redacted]");
    expect(lastBody()).toMatchObject({ model: "claude-haiku-4-5", max_tokens: 64_000, stream: true });
  });

  it("streams a tool call whose JSON arguments arrive in pieces", async () => {
    wire.server.enqueue(
      toolCallReply("read_file", { path: "src/index.ts", limit: 20 }, { text: "Reading.", chunkSize: 5 }),
    );
    const result = await collectEvents(
      provider().stream({ model: haiku, messages: hello, tools: [readTool] }),
    );
    const deltas = result.events.filter((event) => event.type === "toolcall-delta");
    expect(deltas.length).toBeGreaterThan(3);
    const end = result.events.find((event) => event.type === "toolcall-end");
    expect(end?.type === "toolcall-end" && end.toolCall.arguments).toEqual({
      path: "src/index.ts",
      limit: 20,
    });
    expect(result.message.stopReason).toBe("toolUse");
    expect(result.message.content[1]).toMatchObject({
      type: "toolCall",
      id: "toolu_msg_1_1",
      name: "read_file",
    });
  });

  it("keeps thinking with its signature and redacted thinking", async () => {
    wire.server.enqueue(
      contentReply([
        { type: "thinking", thinking: "Let me think about it.", signature: "sig-abc" },
        { type: "redacted-thinking", data: "opaque-payload" },
        { type: "text", text: "Answer." },
      ]),
    );
    const result = await collectEvents(
      provider().stream({ model: haiku, messages: hello }, { reasoning: "low" }),
    );
    expect(result.message.content).toEqual([
      { type: "thinking", thinking: "Let me think about it.", thinkingSignature: "sig-abc" },
      { type: "thinking", thinking: "[redacted]", thinkingSignature: "opaque-payload", redacted: true },
      { type: "text", text: "Answer." },
    ]);
    expect(result.types).toContain("thinking-delta");
    expect(lastBody().thinking).toEqual({ type: "enabled", budget_tokens: 4096 });
  });

  it("reports cached tokens", async () => {
    wire.server.enqueue(
      textReply("ok", { usage: { input: 50, output: 10, cacheRead: 4000, cacheWrite: 300 } }),
    );
    const { message } = await collectEvents(provider().stream({ model: haiku, messages: hello }));
    expect(message.usage).toMatchObject({
      input: 50,
      output: 10,
      cacheRead: 4000,
      cacheWrite: 300,
      totalTokens: 4360,
    });
    expect(message.usage.cost.cacheRead).toBeCloseTo((4000 * 0.1) / 1e6, 12);
    expect(message.usage.cost.cacheWrite).toBeCloseTo((300 * 1.25) / 1e6, 12);
  });

  it("maps a refusal to PROVIDER_CONTENT_REFUSED", async () => {
    wire.server.enqueue(textReply("I can't", { rawStopReason: "refusal" }));
    const result = await collectEvents(provider().stream({ model: haiku, messages: hello }));
    expect(result.error?.code).toBe("PROVIDER_CONTENT_REFUSED");
    expect(result.message.content).toEqual([{ type: "text", text: "I can't" }]);
  });
});

describe("createAnthropicProvider: request", () => {
  const conversation: Message[] = [
    {
      role: "user",
      content: [
        { type: "text", text: "What is in this picture?" },
        { type: "image", data: "aGVsbG8=", mimeType: "image/png" },
      ],
      timestamp: 1,
    },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "I should look.", thinkingSignature: "sig-1" },
        { type: "toolCall", id: "toolu_1", name: "read_file", arguments: { path: "a.png" } },
        { type: "toolCall", id: "toolu_2", name: "read_file", arguments: { path: "b.png" } },
      ],
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-haiku-4-5",
      usage: {
        input: 1,
        output: 1,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 2,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason: "toolUse",
      timestamp: 2,
    },
    {
      role: "toolResult",
      toolCallId: "toolu_1",
      toolName: "read_file",
      content: [{ type: "text", text: "a picture of a cat" }],
      isError: false,
      timestamp: 3,
    },
  ];

  it("converts images, signed thinking and grouped tool results, with a synthetic missing result", async () => {
    wire.server.enqueue(textReply("A cat."));
    await collectEvents(
      provider().stream({
        model: haiku,
        systemPrompt: "Be brief.",
        messages: conversation,
        tools: [readTool],
      }),
    );
    const body = lastBody() as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
    expect(body.messages[0]?.content[1]).toMatchObject({
      type: "image",
      source: { type: "base64", media_type: "image/png", data: "aGVsbG8=" },
    });
    expect(body.messages[1]?.content[0]).toEqual({
      type: "thinking",
      thinking: "I should look.",
      signature: "sig-1",
    });
    expect(body.messages[2]?.role).toBe("user");
    expect(body.messages[2]?.content.map((block) => [block.type, block.tool_use_id, block.is_error])).toEqual(
      [
        ["tool_result", "toolu_1", false],
        ["tool_result", "toolu_2", true],
      ],
    );
  });

  it("places cache breakpoints on the system prompt, the last tool and the last block", async () => {
    wire.server.enqueue(textReply("ok"));
    await collectEvents(
      provider().stream({
        model: haiku,
        systemPrompt: "Be brief.",
        messages: conversation,
        tools: [readTool],
      }),
    );
    const body = lastBody() as Record<string, Array<Record<string, unknown>>>;
    expect(body.system?.[0]?.cache_control).toEqual({ type: "ephemeral" });
    expect(body.tools?.[0]?.cache_control).toEqual({ type: "ephemeral" });
    const messages = body.messages as Array<{ content: Array<Record<string, unknown>> }>;
    const lastContent = messages[messages.length - 1]?.content ?? [];
    expect(lastContent[lastContent.length - 1]?.cache_control).toEqual({ type: "ephemeral" });
    expect(JSON.stringify(body).match(/cache_control/g)).toHaveLength(3);
  });

  it("puts a fourth breakpoint after a usable cache anchor (the user message holding it), and ignores others", async () => {
    const answer: Message = {
      ...(conversation[1] as Message & { role: "assistant" }),
      content: [{ type: "text", text: "A cat." }],
      stopReason: "stop",
      timestamp: 4,
    };
    const messages: Message[] = [
      ...conversation,
      answer,
      { role: "user", content: "And now?", timestamp: 5 },
    ];
    wire.server.enqueue(textReply("ok"), textReply("ok"), textReply("ok"));
    const send = (cacheAnchor: number | undefined) =>
      collectEvents(
        provider().stream({
          model: haiku,
          systemPrompt: "Be brief.",
          messages,
          tools: [readTool],
          cacheAnchor,
        }),
      );
    await send(2);
    const body = lastBody() as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
    expect(JSON.stringify(body).match(/cache_control/g)).toHaveLength(4);
    // The tool results (the recorded one and the synthetic one) form the third wire message: its last block.
    const results = body.messages[2]?.content ?? [];
    expect(results.map((block) => block.type)).toEqual(["tool_result", "tool_result"]);
    expect(results[1]?.cache_control).toEqual({ type: "ephemeral" });
    expect(results[0]?.cache_control).toBeUndefined();
    expect(body.messages[4]?.content.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
    // An assistant message, or the last message, is not a usable anchor: the usual three.
    await send(1);
    expect(JSON.stringify(lastBody()).match(/cache_control/g)).toHaveLength(3);
    await send(4);
    expect(JSON.stringify(lastBody()).match(/cache_control/g)).toHaveLength(3);
  });

  it("writes no cache for retention none and a 1h cache for long", async () => {
    wire.server.enqueue(textReply("ok"), textReply("ok"));
    const request = { model: haiku, systemPrompt: "Summarize.", messages: conversation, tools: [readTool] };
    await collectEvents(provider().stream(request, { cacheRetention: "none" }));
    expect(JSON.stringify(wire.server.requests[0]?.body)).not.toContain("cache_control");
    await collectEvents(provider().stream(request, { cacheRetention: "long" }));
    expect(JSON.stringify(wire.server.requests[1]?.body).match(/"ttl":"1h"/g)).toHaveLength(3);
  });

  it("uses adaptive thinking with an effort for Claude 4.6 and drops temperature while thinking", async () => {
    wire.server.enqueue(textReply("ok"), textReply("ok"));
    const opus = getModel("anthropic", "claude-opus-4-6");
    await collectEvents(
      provider().stream({ model: opus, messages: hello }, { reasoning: "medium", temperature: 0.5 }),
    );
    expect(lastBody()).toMatchObject({ thinking: { type: "adaptive" }, output_config: { effort: "medium" } });
    expect(lastBody().temperature).toBeUndefined();
    await collectEvents(
      provider().stream({ model: haiku, messages: hello }, { temperature: 0.5, maxTokens: 100 }),
    );
    expect(lastBody()).toMatchObject({ temperature: 0.5, max_tokens: 100 });
    expect(lastBody().thinking).toBeUndefined();
  });

  it("reads the key and base URL from the environment", async () => {
    wire.server.enqueue(textReply("from env"));
    const fromEnv = createAnthropicProvider({
      env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: wire.server.anthropicBaseUrl },
    });
    const { message } = await collectEvents(fromEnv.stream({ model: haiku, messages: hello }));
    expect(message.content).toEqual([{ type: "text", text: "from env" }]);
    expect(wire.server.requests[0]?.authorized).toBe(true);
  });

  it("throws before any request for a model of another API", () => {
    const gpt = getModel("openai", "gpt-4.1");
    expect(() => provider().stream({ model: gpt, messages: hello })).toThrow(ArborError);
    expect(() => provider().stream({ model: gpt, messages: hello })).toThrow(
      /PROVIDER_UNSUPPORTED_API|api "openai-responses"/,
    );
    expect(wire.server.requests).toHaveLength(0);
  });
});

describe("createAnthropicProvider: faults", () => {
  it("honours retry-after on a 429 and then succeeds", async () => {
    wire.server.enqueue(rateLimitReply({ retryAfterSeconds: 0.05 }), textReply("after the wait"));
    const result = await collectEvents(provider().stream({ model: haiku, messages: hello }));
    const retry = result.events.find((event) => event.type === "retry");
    expect(retry?.type === "retry" && [retry.attempt, retry.delayMs, retry.error.code]).toEqual([
      1,
      50,
      "PROVIDER_RATE_LIMITED",
    ]);
    expect(result.message.content).toEqual([{ type: "text", text: "after the wait" }]);
    expect(wire.server.requests).toHaveLength(2);
  });

  it("gives up at once when retry-after exceeds maxDelayMs, reporting the wait", async () => {
    wire.server.enqueue(rateLimitReply({ retryAfterSeconds: 120 }));
    const result = await collectEvents(
      provider().stream({ model: haiku, messages: hello }, { retry: { maxDelayMs: 1000 } }),
    );
    expect(result.error).toMatchObject({ code: "PROVIDER_RATE_LIMITED", retryAfterMs: 120_000, status: 429 });
    expect(wire.server.requests).toHaveLength(1);
  });

  it("retries server errors with backoff up to maxRetries", async () => {
    wire.server.enqueue(serverErrorReply(500), serverErrorReply(529), serverErrorReply(503));
    const result = await collectEvents(
      provider().stream(
        { model: haiku, messages: hello },
        { retry: { maxRetries: 2, baseDelayMs: 1, jitter: 0 } },
      ),
    );
    expect(
      result.events
        .filter((event) => event.type === "retry")
        .map((event) => event.type === "retry" && event.delayMs),
    ).toEqual([1, 2]);
    expect(result.error).toMatchObject({ code: "PROVIDER_SERVER_ERROR", status: 503 });
    expect(result.message.stopReason).toBe("error");
    expect(wire.server.requests).toHaveLength(3);
  });

  it.each(["native", "anthropic-413"] as const)(
    "classifies the %s overflow error and does not retry",
    async (flavor) => {
      wire.server.enqueue(overflowReply(flavor));
      const result = await collectEvents(provider().stream({ model: haiku, messages: hello }));
      expect(result.error?.code).toBe("PROVIDER_CONTEXT_OVERFLOW");
      expect(isContextOverflow(result.message)).toBe(true);
      expect(wire.server.requests).toHaveLength(1);
    },
  );

  it("reports a rejected key as PROVIDER_AUTH_FAILED without the key anywhere", async () => {
    const wrongKey = "sk-ant-wrong-9876543210";
    const result = await collectEvents(
      provider({ apiKey: wrongKey }).stream({ model: haiku, messages: hello }),
    );
    expect(result.error?.code).toBe("PROVIDER_AUTH_FAILED");
    const everything = [
      inspect(result.error, { depth: 8 }),
      JSON.stringify(result.events),
      JSON.stringify(wire.server.requests),
    ];
    for (const text of everything) expect(text).not.toContain(wrongKey);
  });

  it("keeps partial and masked echoes of the key out of the error", async () => {
    wire.server.enqueue(
      errorReply(403, {
        type: "error",
        error: {
          type: "permission_error",
          message: `key ${KEY.slice(4, 20)} / ${KEY.slice(0, 5)}***${KEY.slice(-3)} denied`,
        },
      }),
    );
    const result = await collectEvents(provider().stream({ model: haiku, messages: hello }, noRetry));
    expect(result.error?.code).toBe("PROVIDER_AUTH_FAILED");
    expect(result.message.errorMessage).toBe("Anthropic API error (403): key [redacted] / [redacted] denied");
  });

  it("refuses a base URL with credentials in it, before any request and without the password", async () => {
    const baseUrl = wire.server.anthropicBaseUrl.replace("http://", "http://me:hunter2-Secret9@");
    const result = await collectEvents(provider({ baseUrl }).stream({ model: haiku, messages: hello }));
    expect(result.error?.code).toBe("PROVIDER_BAD_REQUEST");
    expect(result.error?.isRetryable).toBe(false);
    expect(result.message.errorMessage).toMatch(
      /base URL http:\/\/\[redacted\]@127\.0\.0\.1:\d+ has credentials/,
    );
    expect(inspect(result.error, { depth: 8 })).not.toContain("hunter2");
    expect(wire.server.requests).toHaveLength(0);
  });

  it("ends with PROVIDER_MISSING_API_KEY naming the variable, without a request", async () => {
    const keyless = createAnthropicProvider({ baseUrl: wire.server.anthropicBaseUrl, env: {} });
    const result = await collectEvents(keyless.stream({ model: haiku, messages: hello }));
    expect(result.error).toMatchObject({ code: "PROVIDER_MISSING_API_KEY", envVar: "ANTHROPIC_API_KEY" });
    expect(result.message.errorMessage).toContain("ANTHROPIC_API_KEY");
    expect(wire.server.requests).toHaveLength(0);
  });

  it("keeps the partial content when the stream is cut mid-way", async () => {
    wire.server.enqueue(textReply("This answer will be cut off", { chunkSize: 4, cutAfterEvents: 5 }));
    const result = await collectEvents(provider().stream({ model: haiku, messages: hello }, noRetry));
    expect(result.error?.code).toBe("PROVIDER_STREAM_INTERRUPTED");
    expect(result.message.stopReason).toBe("error");
    expect(result.message.content).toEqual([{ type: "text", text: "This ans" }]);
  });

  it("retries a stream cut before any content", async () => {
    wire.server.enqueue(textReply("lost", { cutAfterEvents: 1 }), textReply("second try"));
    const result = await collectEvents(
      provider().stream({ model: haiku, messages: hello }, { retry: { baseDelayMs: 1 } }),
    );
    expect(result.types).toContain("retry");
    expect(result.message.content).toEqual([{ type: "text", text: "second try" }]);
  });

  it("aborts mid-stream, keeping the partial content with stop reason aborted", async () => {
    wire.server.enqueue(textReply("A slow answer that never finishes", { chunkSize: 4, eventDelayMs: 15 }));
    const controller = new AbortController();
    const events = [];
    for await (const event of provider().stream(
      { model: haiku, messages: hello },
      { signal: controller.signal },
    )) {
      events.push(event);
      if (event.type === "text-delta" && event.partial.content.length > 0) controller.abort();
    }
    const last = events[events.length - 1];
    expect(last?.type).toBe("error");
    if (last?.type !== "error") return;
    expect(last.error.code).toBe("PROVIDER_ABORTED");
    expect(last.message.stopReason).toBe("aborted");
    expect(last.message.content).toEqual([{ type: "text", text: "A sl" }]);
  });

  it("keeps the content when an overloaded error arrives inside the stream", async () => {
    wire.server.enqueue(textReply("Partial answer", { chunkSize: 4, errorAfterEvents: 5 }));
    const result = await collectEvents(provider().stream({ model: haiku, messages: hello }));
    expect(result.error).toMatchObject({ code: "PROVIDER_SERVER_ERROR", providerCode: "overloaded_error" });
    expect(result.message.errorMessage).toBe("Anthropic API error: Overloaded");
    expect(result.message.content).toEqual([{ type: "text", text: "Partial " }]);
    expect(wire.server.requests).toHaveLength(1);
  });

  it("retries an error event that arrives before any content", async () => {
    wire.server.enqueue(textReply("lost", { errorAfterEvents: 1 }), textReply("recovered"));
    const result = await collectEvents(
      provider().stream({ model: haiku, messages: hello }, { retry: { baseDelayMs: 1 } }),
    );
    expect(result.message.content).toEqual([{ type: "text", text: "recovered" }]);
  });

  it("reports an unreachable server as a network error after retrying", async () => {
    const unreachable = provider({ baseUrl: "http://127.0.0.1:9" });
    const result = await collectEvents(
      unreachable.stream({ model: haiku, messages: hello }, { retry: { maxRetries: 1, baseDelayMs: 1 } }),
    );
    expect(result.types.filter((type) => type === "retry")).toHaveLength(1);
    expect(result.error?.code).toBe("PROVIDER_NETWORK_ERROR");
    expect(result.message.errorMessage).not.toContain(KEY);
  });

  it("cancels the HTTP request when the consumer stops iterating", async () => {
    wire.server.enqueue(
      textReply("a long reply that nobody reads to the end", { chunkSize: 2, eventDelayMs: 10 }),
    );
    for await (const event of provider().stream({ model: haiku, messages: hello })) {
      if (event.type === "text-delta") break;
    }
    await vi.waitFor(() => expect(wire.server.requests[0]?.outcome).toBe("client-gone"));
  });

  it("rejects a malformed stream as PROVIDER_INVALID_RESPONSE without retrying", async () => {
    wire.server.enqueue(
      rawStreamReply([
        {
          event: "message_start",
          data: {
            type: "message_start",
            message: {
              id: "m",
              type: "message",
              role: "assistant",
              model: "x",
              content: [],
              usage: { input_tokens: 1, output_tokens: 0 },
            },
          },
        },
        {
          event: "content_block_start",
          data: { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        },
        {
          event: "content_block_delta",
          data: { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "s" } },
        },
      ]),
    );
    const result = await collectEvents(provider().stream({ model: haiku, messages: hello }));
    expect(result.error?.code).toBe("PROVIDER_INVALID_RESPONSE");
    expect(wire.server.requests).toHaveLength(1);
  });

  it("aborts during the wait before a retry", async () => {
    wire.server.enqueue(rateLimitReply({ retryAfterSeconds: 5 }));
    const controller = new AbortController();
    const stream = provider().stream(
      { model: haiku, messages: hello },
      { signal: controller.signal, retry: { maxDelayMs: 10_000 } },
    );
    const types: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === "retry") controller.abort();
      if (event.type === "error") expect(event.message.stopReason).toBe("aborted");
    }
    expect(types).toEqual(["start", "retry", "error"]);
    expect(wire.server.requests).toHaveLength(1);
  });
});
