import { describe, expect, it } from "vitest";
import { createEmptyUsage } from "../create-empty-usage";
import type { AssistantMessage, StopReason } from "../message";
import { isContextOverflow } from "./is-context-overflow";
import { isContextOverflowText } from "./is-context-overflow-text";

function message(
  stopReason: StopReason,
  fields: Partial<AssistantMessage> & { input?: number; cacheRead?: number; output?: number } = {},
) {
  const usage = {
    ...createEmptyUsage(),
    input: fields.input ?? 0,
    cacheRead: fields.cacheRead ?? 0,
    output: fields.output ?? 0,
  };
  const result: AssistantMessage = {
    role: "assistant",
    content: [],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "m",
    usage,
    stopReason,
    timestamp: 0,
  };
  if (fields.errorMessage !== undefined) result.errorMessage = fields.errorMessage;
  return result;
}

describe("isContextOverflowText", () => {
  it.each([
    "prompt is too long: 208310 tokens > 200000 maximum",
    "Anthropic API error (413): Request exceeds the maximum allowed number of bytes.",
    "413 Payload Too Large",
    "400 status code (no body)",
    "Cerebras API error (400): status code (no body)",
    "request_too_large",
    "Input is too long for requested model.",
    "Your input exceeds the context window of this model.",
    "This model's maximum context length is 8192 tokens.",
    "The prompt exceeds the model's maximum context length (32768).",
    "context window exceeded",
    "The input token count (1200000) exceeds the maximum number of tokens allowed",
    "The maximum prompt length is 131072 for this model",
    "Please reduce the length of the messages.",
    "exceeds maximum allowed input length of 32768 tokens",
    "The input (9000 tokens) is longer than the model's context length (8192 tokens).",
    "Request exceeds the limit of 131072",
    "the request exceeds the available context size, try increasing it",
    "The number of tokens to keep from the initial prompt is greater than the context length",
    "context window exceeds limit (2013)",
    "Invalid request: exceeded model token limit: 262144",
    "too large for model with 32768 maximum context length",
    "prompt has 5000 tokens, but the configured context size is 4096 tokens",
    "model_context_window_exceeded",
    "prompt too long; exceeded max context length by 1024 tokens",
    "Range of input length should be [1, 30720]",
    "context_length_exceeded",
    "too many tokens in the request",
    "token limit exceeded",
  ])("recognises %j", (text) => {
    expect(isContextOverflowText(text)).toBe(true);
  });

  it.each([
    "Throttling error: Too many tokens, please wait before trying again.",
    "Service unavailable: prompt is too long for the queue",
    "Rate limit reached: too many tokens per minute",
    "429 Too Many Requests",
    "Internal server error",
    "invalid x-api-key",
  ])("rejects %j", (text) => {
    expect(isContextOverflowText(text)).toBe(false);
  });
});

describe("isContextOverflow", () => {
  it("case 1: an error whose message is an overflow wording, without a window", () => {
    expect(
      isContextOverflow(message("error", { errorMessage: "prompt is too long: 5 tokens > 4 maximum" })),
    ).toBe(true);
    expect(isContextOverflow(message("error", { errorMessage: "Internal server error" }))).toBe(false);
    expect(isContextOverflow(message("error"))).toBe(false);
    expect(isContextOverflow(message("aborted", { errorMessage: "prompt is too long" }))).toBe(false);
  });

  it("case 2: a normal stop whose prompt exceeded the window (silent overflow)", () => {
    expect(isContextOverflow(message("stop", { input: 900, cacheRead: 200 }), 1000)).toBe(true);
    expect(isContextOverflow(message("stop", { input: 800, cacheRead: 200 }), 1000)).toBe(false);
    expect(isContextOverflow(message("stop", { input: 5000 }))).toBe(false);
    expect(isContextOverflow(message("toolUse", { input: 5000 }), 1000)).toBe(false);
  });

  it("case 3: a length stop with no output at 99% of the window", () => {
    expect(isContextOverflow(message("length", { input: 990, output: 0 }), 1000)).toBe(true);
    expect(isContextOverflow(message("length", { input: 989, output: 0 }), 1000)).toBe(false);
    expect(isContextOverflow(message("length", { input: 995, output: 3 }), 1000)).toBe(false);
  });

  it("ignores a window that is not positive", () => {
    expect(isContextOverflow(message("stop", { input: 10 }), 0)).toBe(false);
  });
});
