/**
 * The replay's cache breakpoints against what the Anthropic adapter really sends: the same request
 * goes through the official SDK to the local wire server, and the breakpoints in the body must sit
 * where `replayBreakpoints` puts them (after the system prompt and tools, after the anchored
 * message, after the last message).
 */
import type { Message } from "@arbor/providers";
import { getModel } from "@arbor/providers";
import { createAnthropicProvider } from "@arbor/providers/anthropic";
import { startWireServer, type TestLlmServer, textReply } from "@arbor/providers/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replayBreakpoints } from "./replay-provider";

let server: TestLlmServer;
beforeAll(async () => {
  server = await startWireServer();
});
afterAll(async () => {
  await server.close();
});

const model = getModel("anthropic", "claude-sonnet-4-5");
const usage = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const assistant = (content: unknown, stopReason: "stop" | "toolUse" = "stop"): Message =>
  ({
    role: "assistant",
    content,
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage,
    stopReason,
    timestamp: 1,
  }) as Message;
const result = (id: string, text: string): Message => ({
  role: "toolResult",
  toolCallId: id,
  toolName: "read",
  content: [{ type: "text", text }],
  isError: false,
  timestamp: 1,
});
const messages: Message[] = [
  { role: "user", content: "read two files", timestamp: 1 },
  assistant(
    [
      { type: "toolCall", id: "toolu_a", name: "read", arguments: { path: "a.ts" } },
      { type: "toolCall", id: "toolu_b", name: "read", arguments: { path: "b.ts" } },
    ],
    "toolUse",
  ),
  result("toolu_a", "contents of a"),
  result("toolu_b", "contents of b"),
  assistant([{ type: "text", text: "read both" }]),
  { role: "user", content: "now c", timestamp: 1 },
  assistant([{ type: "toolCall", id: "toolu_c", name: "read", arguments: { path: "c.ts" } }], "toolUse"),
  result("toolu_c", "contents of c"),
];

/** The wire body's marked blocks: "system", "tools", or the text / tool_use_id of a message block. */
function markedBlocks(body: Record<string, unknown>): string[] {
  const marks: string[] = [];
  const system = (body.system ?? []) as Array<Record<string, unknown>>;
  if (system.some((block) => block.cache_control)) marks.push("system");
  const tools = (body.tools ?? []) as Array<Record<string, unknown>>;
  if (tools.some((tool) => tool.cache_control)) marks.push("tools");
  for (const message of body.messages as Array<{ content: Array<Record<string, unknown>> | string }>) {
    if (typeof message.content === "string") continue;
    for (const block of message.content)
      if (block.cache_control) marks.push(String(block.tool_use_id ?? block.text ?? block.type));
  }
  return marks;
}

/** What the replay marks, in the same terms: block 0 is the head, block i + 1 is messages[i]. */
function replayMarks(cacheAnchor: number | undefined): string[] {
  return replayBreakpoints({ model, messages, cacheAnchor }, messages.length + 1).map((index) => {
    if (index === 0) return "head";
    const message = messages[index - 1] as Message;
    if (message.role === "toolResult") return message.toolCallId;
    return typeof message.content === "string" ? message.content : "?";
  });
}

describe("replay breakpoints match the Anthropic adapter's wire request", () => {
  it.each([
    [3, ["toolu_b", "toolu_c"]],
    [5, ["now c", "toolu_c"]],
    [2, ["toolu_c"]], // a tool result followed by another one: not usable, as the adapter says
    [undefined, ["toolu_c"]],
  ])("anchor %s", async (cacheAnchor, expected) => {
    server.enqueue(textReply("ok"));
    const provider = createAnthropicProvider({ apiKey: "test", baseUrl: server.anthropicBaseUrl, env: {} });
    const tools = [{ name: "read", description: "read a file", parameters: { type: "object" } }];
    for await (const _event of provider.stream({
      model,
      systemPrompt: "Be brief.",
      messages,
      tools,
      cacheAnchor,
    })) {
      // drain
    }
    const body = server.requests.at(-1)?.body as Record<string, unknown>;
    expect(markedBlocks(body)).toEqual(["system", "tools", ...expected]);
    expect(replayMarks(cacheAnchor)).toEqual(["head", ...expected]);
  });
});
