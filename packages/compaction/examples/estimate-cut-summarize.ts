// Only compaction: estimate a session's context, find where to cut, summarize the older part with
// your own function, and record the compaction. No model and no tokenizer needed.
import assert from "node:assert/strict";
import type { AgentMessage } from "@arbor/agent-loop";
import {
  estimateProjectedContextTokens,
  prepareCompaction,
  resolveCompactionSettings,
  shouldCompact,
} from "@arbor/compaction";
import { createInMemorySessionStore } from "@arbor/session-store";

// A session with ten long exchanges (any store works: openSessionStore for a pi file).
const store = createInMemorySessionStore();
for (let turn = 1; turn <= 10; turn++) {
  store.appendMessage({
    role: "user",
    content: `Step ${turn}: ${"details ".repeat(400)}`,
    timestamp: Date.now(),
  });
  store.appendMessage({
    role: "assistant",
    content: [{ type: "text", text: `Step ${turn} done. ${"notes ".repeat(400)}` }],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-sonnet-4-6",
    usage: {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "stop",
    timestamp: Date.now(),
  });
}

// 1. Estimate (pi-compatible chars/4; pass a tokenCounter from @arbor/compaction/tiktoken for exact counts).
const contextWindow = 24_000;
const settings = resolveCompactionSettings({ reserveTokens: 16_000, keepRecentTokens: 4_000 });
const branch = store.getBranch();
const { tokens } = estimateProjectedContextTokens(store.getProjection(), branch);
assert.ok(shouldCompact(tokens, contextWindow, settings), `${tokens} tokens should call for a compaction`);

// 2. Find the cut point: what to summarize, what to keep verbatim.
const preparation = prepareCompaction(branch, settings);
assert.ok(preparation, "there is something to compact");
assert.ok(preparation.messagesToSummarize.length > 0);

// 3. Summarize with your own function (a model call, a template, anything).
function mySummary(messages: readonly AgentMessage[]): string {
  const steps = messages.filter((message) => message.role === "user").length;
  return `## Goal\nFinish the steps.\n\n## Progress\n${steps} steps done before this point.`;
}

// 4. Record it: the projection now starts with the summary, then the kept messages.
store.appendCompaction({
  summary: mySummary(preparation.messagesToSummarize),
  firstKeptEntryId: preparation.firstKeptEntryId,
  tokensBefore: preparation.tokensBefore,
});
const after = store.getProjection();
assert.equal(after.messages[0]?.role, "compactionSummary");
const tokensAfter = estimateProjectedContextTokens(after, store.getBranch()).tokens;
assert.ok(tokensAfter < tokens, `${tokensAfter} < ${tokens}`);
store.close();
console.log(`compaction example: ok (${tokens} → ${tokensAfter} estimated tokens)`);
