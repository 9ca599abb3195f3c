import type { AgentMessage } from "@arbor/agent-loop";
import { getEncoding } from "js-tiktoken";
import { describe, expect, it } from "vitest";
import { chineseText, jsonListing, turnMessages } from "../internal/testing/corpora";
import { assistant, toolCall, user } from "../internal/testing/messages";
import { estimateContextTokens } from "../tokens/estimate-context-tokens";
import { createTiktokenCounter } from "./create-tiktoken-counter";

// cl100k loads faster than o200k; the behaviour under test does not depend on the encoding.
const counter = createTiktokenCounter({ encoding: "cl100k_base" });
const reference = getEncoding("cl100k_base");

describe("createTiktokenCounter", () => {
  it("counts exact tokens plus the per-message overhead", { timeout: 30_000 }, () => {
    const text = `${jsonListing(2, 5)}\n${chineseText(1, 4)}`;
    expect(counter.countText(text)).toBe(reference.encode(text).length);
    expect(counter.countMessage(user(text))).toBe(reference.encode(text).length + 4);
    const call = assistant([toolCall("c", "read", { path: "a.ts" })]);
    expect(counter.countMessage(call)).toBe(
      4 + reference.encode("read").length + reference.encode('{"path":"a.ts"}').length,
    );
    expect(counter.countText("<|endoftext|> is plain text here")).toBeGreaterThan(1);
  });

  it("loads the tokenizer lazily", () => {
    const lazy = createTiktokenCounter({ encoding: "cl100k_base" });
    expect(lazy.stats.tokenizerCalls).toBe(0);
    expect(lazy.name).toBe("tiktoken:cl100k_base");
  });

  it("tokenizes a growing session only for what was appended", { timeout: 30_000 }, () => {
    const growing = createTiktokenCounter({ encoding: "cl100k_base" });
    const messages: AgentMessage[] = [];
    for (let turn = 0; turn < 30; turn++) messages.push(...turnMessages(turn, jsonListing(turn, 8)));
    const first = estimateContextTokens(messages, { tokenCounter: growing });
    const callsAfterFirst = growing.stats.tokenizerCalls;
    expect(callsAfterFirst).toBeGreaterThanOrEqual(messages.length);

    const appended = turnMessages(30, jsonListing(30, 8));
    messages.push(...appended);
    const second = estimateContextTokens(messages, { tokenCounter: growing });
    // The 4 new messages hold 5 texts (the call is a name plus its JSON arguments); nothing else is re-tokenized.
    expect(growing.stats.tokenizerCalls - callsAfterFirst).toBe(5);
    expect(second.tokens - first.tokens).toBe(
      appended.reduce((sum, message) => sum + growing.countMessage(message), 0),
    );

    const callsBefore = growing.stats.tokenizerCalls;
    estimateContextTokens(messages, { tokenCounter: growing });
    expect(growing.stats.tokenizerCalls).toBe(callsBefore);
  });

  it("reuses long texts seen in new message objects (re-projected summaries and custom messages)", () => {
    const long = "summary ".repeat(100);
    const calls = counter.stats.tokenizerCalls;
    counter.countMessage({ role: "custom", customType: "n", content: long, display: true, timestamp: 1 });
    counter.countMessage({ role: "custom", customType: "n", content: long, display: true, timestamp: 1 });
    expect(counter.stats.tokenizerCalls - calls).toBe(1);
  });
});
