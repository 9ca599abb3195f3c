import { defineModel, type Model } from "@arbor/providers";
import { createAnthropicProvider } from "@arbor/providers/anthropic";
import { createOpenAIProvider } from "@arbor/providers/openai";
import {
  contentReply,
  serverErrorReply,
  startWireServer,
  type TestLlmServer,
  textReply,
  toolCallReply,
} from "@arbor/providers/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CompactionError } from "../compaction-error";
import { loadFixture } from "../internal/testing/load-fixture";
import { type CompactionPreparation, prepareCompaction } from "../prepare/prepare-compaction";
import { compact } from "./compact";
import { fitSummaryMaxTokens } from "./request-summary";
import { SPLIT_TURN_SEPARATOR, SUMMARY_SYSTEM_PROMPT } from "./summary-prompts";

const KEY = "sk-test-compaction-0123456789";
const claude: Model = defineModel({
  id: "claude-test",
  provider: "anthropic",
  api: "anthropic-messages",
  contextWindow: 200_000,
  maxTokens: 64_000,
  reasoning: true,
});
const gpt: Model = defineModel({
  id: "gpt-test",
  provider: "openai",
  api: "openai-chat",
  contextWindow: 128_000,
  maxTokens: 16_384,
});
const noRetry = { maxRetries: 0 };

let server: TestLlmServer;
beforeEach(async () => {
  server = await startWireServer({ apiKey: KEY });
});
afterEach(async () => {
  await server.close();
});

const anthropic = () => createAnthropicProvider({ apiKey: KEY, baseUrl: server.anthropicBaseUrl, env: {} });
const openai = () => createOpenAIProvider({ apiKey: KEY, baseUrl: server.openaiBaseUrl, env: {} });

function preparation(leaf: string, keepRecentTokens: number): CompactionPreparation {
  const prepared = prepareCompaction(loadFixture("coding-session.jsonl").branch(leaf), {
    enabled: true,
    reserveTokens: 16384,
    keepRecentTokens,
  });
  if (!prepared) throw new Error("nothing to compact");
  return prepared;
}

function body(index: number): Record<string, unknown> {
  return server.requests[index]?.body as Record<string, unknown>;
}

function userPrompt(index: number): string {
  const messages = body(index).messages as Array<{ content: string | Array<{ text: string }> }>;
  const content = messages[0]?.content;
  return typeof content === "string" ? content : (content?.map((block) => block.text).join("") ?? "");
}

describe("compact through the Anthropic SDK", () => {
  it("sends one summarization request without cache writes, with a fitted output limit", async () => {
    const prepared = preparation("usr00003", 0);
    expect(prepared.isSplitTurn).toBe(false);
    server.enqueue(textReply("## Goal\nFix the date parser.", { usage: { input: 5000, output: 300 } }));
    const result = await compact(prepared, {
      provider: anthropic(),
      model: claude,
      retry: noRetry,
      customInstructions: "the tests",
    });

    expect(server.requests).toHaveLength(1);
    const request = body(0);
    expect(JSON.stringify(request)).not.toContain("cache_control");
    expect(request.tools).toBeUndefined();
    const system = request.system as string | Array<{ text: string }>;
    expect(typeof system === "string" ? system : system.map((block) => block.text).join("")).toBe(
      SUMMARY_SYSTEM_PROMPT,
    );
    expect(request.messages).toHaveLength(1);
    const prompt = userPrompt(0);
    expect(prompt.startsWith("<conversation>\n[User]: The test `parses ISO dates with offsets`")).toBe(true);
    expect(prompt).toContain("[Tool result]: ");
    expect(prompt).toContain("more characters truncated]");
    expect(prompt).toContain("## Critical Context");
    expect(prompt.endsWith("Give special attention to: the tests")).toBe(true);
    expect(request.max_tokens).toBe(
      fitSummaryMaxTokens(claude, SUMMARY_SYSTEM_PROMPT.length + prompt.length),
    );
    expect(request.max_tokens).toBe(64_000);
    expect(request.thinking).toBeUndefined();

    expect(result.summarizer).toBe("model");
    expect(result.firstKeptEntryId).toBe(prepared.firstKeptEntryId);
    expect(result.tokensBefore).toBe(prepared.tokensBefore);
    expect(result.usage).toMatchObject({ input: 5000, output: 300 });
    expect(result.details).toEqual({ readFiles: [], modifiedFiles: ["src/date.ts", "test/date.test.ts"] });
    expect(result.summary).toBe(
      "## Goal\nFix the date parser.\n\n<modified-files>\nsrc/date.ts\ntest/date.test.ts\n</modified-files>",
    );
  });

  it("summarizes a split turn with a second, sequential request and sums the usage", async () => {
    const prepared = preparation("ast00013", 300);
    expect(prepared.isSplitTurn).toBe(true);
    server.enqueue(
      textReply("HISTORY", { usage: { input: 4000, output: 100 } }),
      textReply("PREFIX", { usage: { input: 900, output: 50 } }),
    );
    const result = await compact(prepared, {
      provider: anthropic(),
      model: claude,
      retry: noRetry,
      reasoning: "high",
    });
    expect(server.requests).toHaveLength(2);
    expect(userPrompt(0)).toContain("[User]: The test `parses ISO dates with offsets`");
    expect(userPrompt(1)).toContain("[User]: Now refactor parseDate");
    expect(userPrompt(1)).toContain("## Original Request");
    expect(body(1).thinking).toBeDefined();
    expect(result.details.readFiles).toEqual(["src/format.ts"]);
    expect(
      result.summary.startsWith(`HISTORY${SPLIT_TURN_SEPARATOR}PREFIX\n\n<read-files>\nsrc/format.ts\n`),
    ).toBe(true);
    expect(result.usage).toMatchObject({ input: 4900, output: 150 });
  });

  it("puts the previous summary in the update request", async () => {
    const session = loadFixture("nested-compactions.jsonl");
    const prepared = prepareCompaction(session.branch("asf00008"), {
      enabled: true,
      reserveTokens: 0,
      keepRecentTokens: 50,
    });
    if (!prepared) throw new Error("nothing to compact");
    expect(prepared.previousSummary).toBe("## Goal\nSecond summary.");
    server.enqueue(textReply("UPDATED"), textReply("PREFIX"));
    await compact(prepared, { provider: anthropic(), model: claude, retry: noRetry });
    expect(userPrompt(0)).toContain(
      "</conversation>\n\n<previous-summary>\n## Goal\nSecond summary.\n</previous-summary>\n\n",
    );
    expect(userPrompt(0)).toContain("Produce one updated checkpoint");
  });
});

describe("compact failures", () => {
  const prepared = () => preparation("usr00003", 0);

  it.each([
    ["an error answer", () => serverErrorReply(500), "SUMMARY_FAILED"],
    ["a length stop", () => textReply("## Goal\nHalf a summ", { stopReason: "length" }), "SUMMARY_TRUNCATED"],
    ["a tool call", () => toolCallReply("read", { path: "x" }), "SUMMARY_TOOL_CALL"],
    ["an empty answer", () => contentReply([{ type: "text", text: "  " }]), "SUMMARY_EMPTY"],
  ])("turns %s into a typed failure and returns no summary", async (_name, reply, code) => {
    server.enqueue(reply());
    const error = await compact(prepared(), { provider: anthropic(), model: claude, retry: noRetry }).catch(
      (caught) => caught,
    );
    expect(error).toBeInstanceOf(CompactionError);
    expect(error.code).toBe(code);
    expect(error.stage).toBe("history");
    expect(error.message).toMatch(/^Compaction summary failed: /);
    expect(error.message).not.toContain("Half a summ");
  });

  it("falls back to the offline summarizer when asked to", async () => {
    server.enqueue(textReply("cut", { stopReason: "length" }));
    const result = await compact(prepared(), {
      provider: anthropic(),
      model: claude,
      retry: noRetry,
      offlineFallback: true,
    });
    expect(result.summarizer).toBe("offline");
    expect(result.fallbackError?.code).toBe("SUMMARY_TRUNCATED");
    expect(result.usage).toBeUndefined();
    expect(result.summary).toContain("## Goal\n- The test `parses ISO dates with offsets`");
    expect(result.summary).toContain("<modified-files>\nsrc/date.ts");
  });

  it("aborts mid-stream with SUMMARY_ABORTED, even with the offline fallback", async () => {
    server.enqueue(textReply("a slow summary that never completes", { eventDelayMs: 200, chunkSize: 2 }));
    const controller = new AbortController();
    const pending = compact(prepared(), {
      provider: anthropic(),
      model: claude,
      retry: noRetry,
      signal: controller.signal,
      offlineFallback: true,
    });
    setTimeout(() => controller.abort(), 50);
    const error = await pending.catch((caught) => caught);
    expect(error).toBeInstanceOf(CompactionError);
    expect(error.code).toBe("SUMMARY_ABORTED");
  });

  it("rejects an already aborted signal before any request", async () => {
    const error = await compact(prepared(), {
      provider: anthropic(),
      model: claude,
      signal: AbortSignal.abort(),
    }).catch((caught) => caught);
    expect(error.code).toBe("SUMMARY_ABORTED");
    expect(server.requests).toHaveLength(0);
  });

  it("rejects a preparation without firstKeptEntryId", async () => {
    const error = await compact({ ...prepared(), firstKeptEntryId: "" }).catch((caught) => caught);
    expect(error.code).toBe("MISSING_FIRST_KEPT_ENTRY");
  });
});

describe("compact through the OpenAI SDK and offline", () => {
  it("sends no prompt-cache key retention and fits max tokens to the smaller window", async () => {
    server.enqueue(textReply("OPENAI SUMMARY"));
    const result = await compact(preparation("usr00003", 0), {
      provider: openai(),
      model: gpt,
      retry: noRetry,
    });
    const request = body(0);
    expect(server.requests[0]?.path).toBe("/v1/chat/completions");
    expect(request.prompt_cache_retention).toBeUndefined();
    expect(request.tools).toBeUndefined();
    const messages = request.messages as Array<{ role: string; content: unknown }>;
    expect(messages.map((message) => message.role)).toEqual(["system", "user"]);
    expect(request.max_tokens ?? request.max_completion_tokens).toBe(16_384);
    expect(result.summary.startsWith("OPENAI SUMMARY\n\n<modified-files>")).toBe(true);
  });

  it("writes the summary offline without a provider", async () => {
    const result = await compact(preparation("usr00003", 0));
    expect(result.summarizer).toBe("offline");
    expect(result.summary).toContain("## Next Steps");
    expect(server.requests).toHaveLength(0);
  });
});
