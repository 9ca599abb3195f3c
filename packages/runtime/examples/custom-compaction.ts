// The runtime with an extension that writes its own compaction summary. Offline: a local server
// that speaks Anthropic's wire format plays the model. In your app, use `createAnthropicProvider()`
// (key from ANTHROPIC_API_KEY) and a file store: `createSessionStore({ dir })` or `openSessionStore(file)`.
import assert from "node:assert/strict";
import type { ExtensionDefinition } from "@arbor/extensions";
import { getModel } from "@arbor/providers";
import { createAnthropicProvider } from "@arbor/providers/anthropic";
import { startWireServer, textReply } from "@arbor/providers/testing";
import { createAgentSession, type RuntimeExtensionApi } from "@arbor/runtime";
import { createInMemorySessionStore } from "@arbor/session-store";

// The extension: instead of asking the model for a summary, keep a list of the user's requests.
const listRequests: ExtensionDefinition<RuntimeExtensionApi> = {
  apiVersion: 1,
  name: "list-requests",
  setup(api) {
    api.on("session_before_compact", ({ preparation }) => {
      const requests = preparation.messagesToSummarize
        .filter((message) => message.role === "user")
        .map((message) => `- ${textOf(message.content)}`);
      return {
        compaction: {
          summary: `## Requests so far\n${requests.join("\n")}`,
          firstKeptEntryId: preparation.firstKeptEntryId,
          tokensBefore: preparation.tokensBefore,
          details: { requests: requests.length },
        },
      };
    });
  },
};

function textOf(content: string | ReadonlyArray<{ type: string; text?: string }>): string {
  if (typeof content === "string") return content;
  return content.map((block) => block.text ?? `(${block.type})`).join(" ");
}

const server = await startWireServer();
server.enqueue(textReply("Paginated."), textReply("Sorted."), textReply("Filtered."));
const store = createInMemorySessionStore();
const session = await createAgentSession({
  store,
  model: getModel("anthropic", "claude-sonnet-4-6"),
  provider: createAnthropicProvider({ apiKey: "test", baseUrl: server.anthropicBaseUrl }),
  systemPrompt: "You are a careful coding assistant.",
  extensions: [listRequests], // or file paths: ["./my-extension.ts"] (.ts needs the jiti package)
  settings: { compaction: { keepRecentTokens: 1 } }, // keep little, so this short session compacts
});

for (const prompt of ["Add pagination.", "Sort by date.", "Filter by tag."]) {
  const result = await session.prompt(prompt);
  assert.equal(result.lastAssistant?.stopReason, "stop");
}

const compaction = await session.compact(); // also runs on its own when the context fills up
assert.equal(compaction.summarizer, "extension");
assert.match(compaction.summary, /- Add pagination\./);
assert.equal(store.getProjection().messages[0]?.role, "compactionSummary");

await session.dispose();
store.close();
await server.close();
console.log("runtime example: ok");
