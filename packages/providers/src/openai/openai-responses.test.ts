import { describe, expect, it } from "vitest";
import { collectEvents } from "../../test/support/collect-events";
import { useWireServer } from "../../test/support/use-wire-server";
import type { AssistantMessage, Message, Tool } from "../message";
import { getModel } from "../model/model-catalog";
import { isContextOverflow } from "../overflow/is-context-overflow";
import {
  contentReply,
  overflowReply,
  rateLimitReply,
  textReply,
  toolCallReply,
} from "../testing/wire-replies";
import { createOpenAIProvider } from "./openai-provider";

const KEY = "sk-test-responses-key-123456";
const gpt5 = getModel("openai", "gpt-5");
const hello: Message[] = [{ role: "user", content: "Hello", timestamp: 1 }];
const readTool: Tool = { name: "read_file", description: "Read a file", parameters: { type: "object" } };

const wire = useWireServer(KEY);

function provider() {
  return createOpenAIProvider({ apiKey: KEY, baseUrl: wire.server.openaiBaseUrl, env: {} });
}

const { lastBody } = wire;

describe("createOpenAIProvider (responses)", () => {
  it("streams reasoning, text and a tool call, keeping replayable signatures", async () => {
    wire.server.enqueue(
      contentReply(
        [
          { type: "thinking", thinking: "Plan the read.", signature: "encrypted-blob" },
          { type: "text", text: "Reading." },
          { type: "tool-call", id: "call_9", name: "read_file", arguments: { path: "x.md" } },
        ],
        { usage: { input: 40, cacheRead: 60, output: 30, reasoning: 12 } },
      ),
    );
    const result = await collectEvents(
      provider().stream(
        { model: gpt5, systemPrompt: "sys", messages: hello, tools: [readTool] },
        { reasoning: "high" },
      ),
    );
    const [thinking, text, call] = result.message.content;
    expect(thinking).toMatchObject({ type: "thinking", thinking: "Plan the read." });
    expect(JSON.parse((thinking as { thinkingSignature: string }).thinkingSignature)).toMatchObject({
      type: "reasoning",
      id: "rs_1_0",
      encrypted_content: "encrypted-blob",
    });
    expect(text).toEqual({ type: "text", text: "Reading.", textSignature: "msg_1_1" });
    expect(call).toEqual({ type: "toolCall", id: "call_9", name: "read_file", arguments: { path: "x.md" } });
    expect(result.message.stopReason).toBe("toolUse");
    expect(result.message.usage).toMatchObject({
      input: 40,
      cacheRead: 60,
      output: 30,
      reasoning: 12,
      totalTokens: 130,
    });
    expect(wire.server.requests[0]?.path).toBe("/v1/responses");
    expect(lastBody()).toMatchObject({
      model: "gpt-5",
      instructions: "sys",
      store: false,
      stream: true,
      max_output_tokens: 128_000,
      reasoning: { effort: "high", summary: "auto" },
      include: ["reasoning.encrypted_content"],
      tools: [
        {
          type: "function",
          name: "read_file",
          description: "Read a file",
          parameters: { type: "object" },
          strict: false,
        },
      ],
    });
  });

  it("replays the same model's reasoning items and answers tool calls", async () => {
    wire.server.enqueue(textReply("first"));
    const first = await collectEvents(provider().stream({ model: gpt5, messages: hello }));
    const previous: AssistantMessage = {
      ...first.message,
      content: [
        {
          type: "thinking",
          thinking: "t",
          thinkingSignature: JSON.stringify({
            type: "reasoning",
            id: "rs_7",
            summary: [],
            encrypted_content: "e",
          }),
        },
        { type: "text", text: "calling", textSignature: "msg_7" },
        { type: "toolCall", id: "call_7", name: "read_file", arguments: { path: "p" } },
      ],
      stopReason: "toolUse",
    };
    wire.server.enqueue(textReply("second"));
    await collectEvents(provider().stream({ model: gpt5, messages: [...hello, previous] }));
    expect(lastBody().input).toEqual([
      { role: "user", content: [{ type: "input_text", text: "Hello" }] },
      { type: "reasoning", id: "rs_7", summary: [], encrypted_content: "e" },
      {
        type: "message",
        role: "assistant",
        id: "msg_7",
        status: "completed",
        content: [{ type: "output_text", text: "calling", annotations: [] }],
      },
      { type: "function_call", call_id: "call_7", name: "read_file", arguments: '{"path":"p"}' },
      {
        type: "function_call_output",
        call_id: "call_7",
        output: "No result was recorded for this tool call.",
      },
    ]);
  });

  it("reports a length stop from response.incomplete", async () => {
    wire.server.enqueue(textReply("cut short", { stopReason: "length" }));
    const { message } = await collectEvents(provider().stream({ model: gpt5, messages: hello }));
    expect(message.stopReason).toBe("length");
    expect(message.content).toEqual([{ type: "text", text: "cut short", textSignature: "msg_1_0" }]);
  });

  it("classifies the Responses overflow error", async () => {
    wire.server.enqueue(overflowReply());
    const result = await collectEvents(provider().stream({ model: gpt5, messages: hello }));
    expect(result.error?.code).toBe("PROVIDER_CONTEXT_OVERFLOW");
    expect(result.message.errorMessage).toContain("exceeds the context window");
    expect(isContextOverflow(result.message)).toBe(true);
  });

  it("retries a 429 and streams the second answer", async () => {
    wire.server.enqueue(
      rateLimitReply({ retryAfterSeconds: 0.01 }),
      toolCallReply("read_file", { path: "a" }),
    );
    const result = await collectEvents(provider().stream({ model: gpt5, messages: hello }));
    expect(result.types).toContain("retry");
    expect(result.message.stopReason).toBe("toolUse");
  });

  it("maps response.failed inside the stream, with an overflow message, to an overflow error", async () => {
    wire.server.enqueue(
      textReply("abc", {
        errorAfterEvents: 2,
        streamErrorMessage: "Your input exceeds the context window of this model.",
      }),
    );
    const result = await collectEvents(provider().stream({ model: gpt5, messages: hello }));
    expect(result.error?.code).toBe("PROVIDER_CONTEXT_OVERFLOW");
    expect(isContextOverflow(result.message)).toBe(true);
  });

  it("keeps the partial reasoning when the stream is cut", async () => {
    wire.server.enqueue(
      contentReply([{ type: "thinking", thinking: "A long line of thought" }], {
        chunkSize: 5,
        cutAfterEvents: 6,
      }),
    );
    const result = await collectEvents(
      provider().stream({ model: gpt5, messages: hello }, { retry: { maxRetries: 0 } }),
    );
    expect(result.error?.code).toBe("PROVIDER_STREAM_INTERRUPTED");
    expect(result.message.content).toEqual([{ type: "thinking", thinking: "A long lin" }]);
  });
});
