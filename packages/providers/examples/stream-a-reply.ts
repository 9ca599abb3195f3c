// Stream a reply from Anthropic and from an OpenAI-compatible server through one interface.
// Offline: a local server that speaks both wire formats stands in for the real APIs. In your app,
// drop `startWireServer` and the `baseUrl`/`apiKey` options: the keys come from ANTHROPIC_API_KEY
// and OPENAI_API_KEY.
import assert from "node:assert/strict";
import { complete, getModel } from "@arbor/providers";
import { createAnthropicProvider } from "@arbor/providers/anthropic";
import { createOpenAIProvider } from "@arbor/providers/openai";
import { startWireServer, textReply } from "@arbor/providers/testing";

const server = await startWireServer();
server.enqueue(textReply("Hello from Claude."), textReply("Hello from GPT."));

const anthropic = createAnthropicProvider({ apiKey: "test", baseUrl: server.anthropicBaseUrl });
const claude = getModel("anthropic", "claude-sonnet-4-6");
let streamed = "";
for await (const event of anthropic.stream({
  model: claude,
  systemPrompt: "Be brief.",
  messages: [{ role: "user", content: "Hi!", timestamp: Date.now() }],
})) {
  if (event.type === "text-delta") streamed += event.delta;
  if (event.type === "error") throw event.error; // a typed ProviderError with a stable code
}
assert.equal(streamed, "Hello from Claude.");

// Or wait for the whole message. Any OpenAI-compatible server works through `baseUrl`.
const openai = createOpenAIProvider({ apiKey: "test", baseUrl: server.openaiBaseUrl });
const message = await complete(openai, {
  model: getModel("openai", "gpt-4.1"),
  messages: [{ role: "user", content: "Hi!", timestamp: Date.now() }],
});
assert.equal(message.stopReason, "stop");
assert.deepEqual(
  message.content.map((block) => (block.type === "text" ? block.text : block.type)),
  ["Hello from GPT."],
);

await server.close();
console.log("providers example: ok");
