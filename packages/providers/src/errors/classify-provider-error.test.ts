import { describe, expect, it } from "vitest";
import { OVERFLOW_ERROR_BODIES } from "../testing/overflow-error-bodies";
import { classifyProviderError } from "./classify-provider-error";

describe("classifyProviderError: context overflow", () => {
  it.each([
    // The overflow bodies the wire-level test server sends, one per provider or server …
    ...Object.entries(OVERFLOW_ERROR_BODIES).map(
      ([name, { status, body }]) => [name, status, body] as [string, number, unknown],
    ),
    // … and wordings it does not send.
    [
      "OpenAI code only",
      400,
      {
        error: {
          message: "Invalid request.",
          type: "invalid_request_error",
          code: "context_length_exceeded",
        },
      },
    ],
    [
      "llama.cpp (prompt has)",
      400,
      {
        error: {
          code: 400,
          message: "prompt has 5000 tokens, but the configured context size is 4096 tokens",
          type: "invalid_request_error",
        },
      },
    ],
    [
      "Mistral",
      400,
      {
        object: "error",
        message: "Prompt contains 40000 tokens, too large for model with 32768 maximum context length",
        type: "invalid_request_error",
      },
    ],
    [
      "Gemini via gateway",
      400,
      {
        error: {
          message: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
          code: 400,
        },
      },
    ],
    ["Cerebras empty body", 400, ""],
    ["plain text body", 400, "Input is too long for requested model."],
  ])("%s", (_name, status, body) => {
    const error = classifyProviderError(status, body, undefined, { provider: "openai" });
    expect(error.code).toBe("PROVIDER_CONTEXT_OVERFLOW");
    expect(error.isRetryable).toBe(false);
    expect(error.status).toBe(status);
  });

  it("keeps the provider's wording and code in the message", () => {
    const error = classifyProviderError(
      400,
      { error: { message: "Invalid request.", code: "context_length_exceeded" } },
      undefined,
      {
        provider: "openai",
      },
    );
    expect(error.message).toBe("OpenAI API error (400): Invalid request. [context_length_exceeded]");
    expect(error.providerCode).toBe("context_length_exceeded");
  });

  it("classifies an Anthropic error event sent inside a stream by its type", () => {
    const error = classifyProviderError(undefined, {
      type: "error",
      error: { type: "invalid_request_error", message: "prompt is too long: 1 tokens > 0 maximum" },
    });
    expect(error.code).toBe("PROVIDER_CONTEXT_OVERFLOW");
    expect(error.status).toBeUndefined();
  });
});

describe("classifyProviderError: other classes", () => {
  it("reads retry-after seconds, HTTP dates and retry-after-ms on rate limits", () => {
    const body = {
      type: "error",
      error: {
        type: "rate_limit_error",
        message: "Number of request tokens has exceeded your per-minute rate limit",
      },
    };
    expect(classifyProviderError(429, body, { "retry-after": "3" })).toMatchObject({
      code: "PROVIDER_RATE_LIMITED",
      retryAfterMs: 3000,
    });
    expect(classifyProviderError(429, body, new Headers({ "retry-after-ms": "250" })).retryAfterMs).toBe(250);
    const now = Date.parse("2026-01-01T00:00:00Z");
    const dated = classifyProviderError(
      429,
      body,
      { "Retry-After": "Thu, 01 Jan 2026 00:00:10 GMT" },
      { now },
    );
    expect(dated.retryAfterMs).toBe(10_000);
    expect(classifyProviderError(429, body).retryAfterMs).toBeUndefined();
  });

  it("does not mistake token-rate limits for overflow", () => {
    const body = {
      error: {
        message: "Rate limit reached: too many tokens per minute. Limit 30000.",
        code: "rate_limit_exceeded",
      },
    };
    expect(classifyProviderError(429, body).code).toBe("PROVIDER_RATE_LIMITED");
    expect(
      classifyProviderError(undefined, { error: { message: "Too many tokens, rate limit exceeded" } }).code,
    ).toBe("PROVIDER_SERVER_ERROR");
  });

  it("separates exhausted quota from rate limits", () => {
    const quota = {
      error: {
        message: "You exceeded your current quota, please check your plan and billing details.",
        type: "insufficient_quota",
        code: "insufficient_quota",
      },
    };
    expect(classifyProviderError(429, quota)).toMatchObject({
      code: "PROVIDER_QUOTA_EXCEEDED",
      isRetryable: false,
    });
    expect(
      classifyProviderError(402, {
        type: "error",
        error: { type: "billing_error", message: "Credit balance too low" },
      }).code,
    ).toBe("PROVIDER_QUOTA_EXCEEDED");
  });

  it.each([
    [401, "PROVIDER_AUTH_FAILED", false],
    [403, "PROVIDER_AUTH_FAILED", false],
    [404, "PROVIDER_BAD_REQUEST", false],
    [422, "PROVIDER_BAD_REQUEST", false],
    [408, "PROVIDER_SERVER_ERROR", true],
    [409, "PROVIDER_SERVER_ERROR", true],
    [500, "PROVIDER_SERVER_ERROR", true],
    [503, "PROVIDER_SERVER_ERROR", true],
    [529, "PROVIDER_SERVER_ERROR", true],
  ])("maps status %i to %s", (status, code, retryable) => {
    const error = classifyProviderError(status, { error: { message: "something happened" } });
    expect(error.code).toBe(code);
    expect(error.isRetryable).toBe(retryable);
  });

  it("maps an overloaded error event without status to a retryable server error", () => {
    const error = classifyProviderError(
      undefined,
      { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
      undefined,
      {
        provider: "anthropic",
      },
    );
    expect(error).toMatchObject({
      code: "PROVIDER_SERVER_ERROR",
      message: "Anthropic API error: Overloaded",
    });
  });

  it("scrubs the key and key-shaped tokens from the message", () => {
    const secret = "my-very-secret-key-42";
    const body = {
      error: { message: `Incorrect API key provided: sk-ab***xyz (sent ${secret})`, code: "invalid_api_key" },
    };
    const error = classifyProviderError(401, body, undefined, { secrets: [secret] });
    expect(error.message).not.toContain(secret);
    expect(error.message).not.toContain("sk-ab");
    expect(error.message).toContain("[redacted]");
  });
});
