// The agent loop with one tool: the model asks for the tool, the loop runs it and sends the result
// back, the model answers. Offline: a scripted provider plays the model. In your app, pass
// `createAnthropicProvider()` from @arbor/providers/anthropic (or any other provider) instead.
import assert from "node:assert/strict";
import { type AgentTool, runAgentLoop } from "@arbor/agent-loop";
import { getModel } from "@arbor/providers";
import { createScriptedProvider } from "@arbor/providers/testing";

const add: AgentTool = {
  name: "add",
  description: "Add two numbers",
  parameters: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
  },
  async execute(args) {
    return { content: [{ type: "text", text: String(Number(args.a) + Number(args.b)) }] };
  },
};

const provider = createScriptedProvider([
  { content: [{ type: "toolCall", id: "call_1", name: "add", arguments: { a: 2, b: 3 } }] },
  (request) => {
    const last = request.messages.at(-1);
    const sum = last?.role === "toolResult" && last.content[0]?.type === "text" ? last.content[0].text : "?";
    return { content: [{ type: "text", text: `2 + 3 = ${sum}` }] };
  },
]);

let answer = "";
const result = await runAgentLoop({
  provider,
  model: getModel("anthropic", "claude-sonnet-4-6"),
  messages: [], // the context so far (not mutated)
  prompts: [{ role: "user", content: "What is 2 + 3?", timestamp: Date.now() }],
  tools: [add],
  systemPrompt: "Use the add tool for arithmetic.",
  onEvent: (event) => {
    if (event.type === "message_update" && event.assistantMessageEvent.type === "text-delta") {
      answer += event.assistantMessageEvent.delta;
    }
  },
});

assert.equal(result.stopReason, "stop");
assert.equal(answer, "2 + 3 = 5");
// user prompt, assistant tool call, tool result, final answer
assert.deepEqual(
  result.messages.map((message) => message.role),
  ["user", "assistant", "toolResult", "assistant"],
);
console.log("agent-loop example: ok");
