/**
 * End to end through the real Anthropic adapter (`@arbor/providers/anthropic`, official SDK) against
 * the local wire-level test server: SSE streaming, tool use, tool results sent back, abort.
 */
import { defineModel } from "@arbor/providers";
import { createAnthropicProvider } from "@arbor/providers/anthropic";
import { startWireServer, type TestLlmServer, textReply, toolCallReply } from "@arbor/providers/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AgentEvent } from "../src/agent-event";
import type { AgentTool } from "../src/agent-tool";
import { runAgentLoop } from "../src/run-agent-loop";

const model = defineModel({
  id: "claude-wire-test",
  provider: "anthropic",
  api: "anthropic-messages",
  contextWindow: 200_000,
});

const readFile: AgentTool = {
  name: "read_file",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  async execute(args) {
    return { content: [{ type: "text", text: `contents of ${String(args.path)}` }] };
  },
};

let server: TestLlmServer;

beforeAll(async () => {
  server = await startWireServer();
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.reset();
});

function provider() {
  return createAnthropicProvider({
    apiKey: "test-key",
    baseUrl: server.anthropicBaseUrl,
    retry: { maxRetries: 0 },
  });
}

describe("runAgentLoop through the Anthropic SDK adapter", () => {
  it("streams, runs the requested tool, sends its result back and finishes", async () => {
    server.enqueue(
      toolCallReply("read_file", { path: "a.ts" }, { id: "toolu_1", text: "Let me look." }),
      textReply("The file has contents."),
    );
    const deltas: string[] = [];
    const types: string[] = [];
    const result = await runAgentLoop({
      provider: provider(),
      model,
      messages: [],
      prompts: [{ role: "user", content: "What is in a.ts?", timestamp: Date.now() }],
      tools: [readFile],
      systemPrompt: "You are terse.",
      onEvent: (event: AgentEvent) => {
        types.push(event.type);
        if (event.type === "message_update" && event.assistantMessageEvent.type === "text-delta") {
          deltas.push(event.assistantMessageEvent.delta);
        }
      },
    });

    expect(result.stopReason).toBe("stop");
    expect(result.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "toolResult",
      "assistant",
    ]);
    expect(result.messages[1]).toMatchObject({
      stopReason: "toolUse",
      content: [
        { type: "text", text: "Let me look." },
        { type: "toolCall", id: "toolu_1", name: "read_file", arguments: { path: "a.ts" } },
      ],
    });
    expect(result.messages[3]).toMatchObject({ content: [{ type: "text", text: "The file has contents." }] });
    expect(deltas.join("")).toBe("Let me look.The file has contents.");
    expect(types.filter((type) => type.startsWith("turn_") || type.startsWith("tool_"))).toEqual([
      "turn_start",
      "tool_execution_start",
      "tool_execution_end",
      "turn_end",
      "turn_start",
      "turn_end",
    ]);

    expect(server.requests).toHaveLength(2);
    const first = server.requests[0]?.body as Record<string, unknown>;
    expect(first.model).toBe("claude-wire-test");
    expect(JSON.stringify(first.system)).toContain("You are terse.");
    expect((first.tools as Array<{ name: string }>).map((tool) => tool.name)).toEqual(["read_file"]);
    const second = server.requests[1]?.body as { messages: Array<{ role: string; content: unknown }> };
    expect(second.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(second.messages[2]?.content).toMatchObject([
      { type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "contents of a.ts" }] },
    ]);
  });

  it("aborts a slow stream through the SDK and ends the run as aborted", async () => {
    server.enqueue(textReply("a slow answer that keeps coming", { chunkSize: 2, eventDelayMs: 20 }));
    const controller = new AbortController();
    const result = await runAgentLoop({
      provider: provider(),
      model,
      messages: [{ role: "user", content: "Talk slowly.", timestamp: Date.now() }],
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === "message_update" && event.assistantMessageEvent.type === "text-delta")
          controller.abort();
      },
    });
    expect(result.stopReason).toBe("aborted");
    const [message] = result.messages;
    expect(message).toMatchObject({ role: "assistant", stopReason: "aborted" });
    const text =
      message?.role === "assistant" && message.content[0]?.type === "text" ? message.content[0].text : "";
    expect(text.length).toBeGreaterThan(0);
    expect("a slow answer that keeps coming".startsWith(text)).toBe(true);
    expect(text).not.toBe("a slow answer that keeps coming");
  });
});
