import { describe, expect, it } from "vitest";
import { assistant, usage, user } from "../internal/testing/messages";
import { calculateContextTokens } from "./calculate-context-tokens";
import { estimateContextTokens } from "./estimate-context-tokens";
import type { TokenCounter } from "./token-counter";

describe("calculateContextTokens", () => {
  it("prefers totalTokens and falls back to the sum when it is 0", () => {
    expect(calculateContextTokens(usage(10, 5, 100))).toBe(100);
    expect(calculateContextTokens({ ...usage(10, 5, 0), cacheRead: 3, cacheWrite: 2 })).toBe(20);
  });
});

describe("estimateContextTokens", () => {
  it("uses the last valid usage plus estimates of later messages", () => {
    const messages = [user("hello"), assistant("hi", { usage: usage(40, 10) }), user("x".repeat(16))];
    expect(estimateContextTokens(messages)).toEqual({
      tokens: 54,
      usageTokens: 50,
      trailingTokens: 4,
      lastUsageIndex: 1,
    });
  });

  it("skips aborted, error and zero-usage assistants but accepts a length stop", () => {
    const messages = [
      user("a"),
      assistant("ok", { usage: usage(100, 0) }),
      assistant("cut", { usage: usage(200, 0), stopReason: "length" }),
      assistant("boom", { usage: usage(900, 0), stopReason: "error" }),
      assistant("stop", { usage: usage(900, 0), stopReason: "aborted" }),
      assistant("zero", { usage: usage(0, 0, 0) }),
    ];
    const estimate = estimateContextTokens(messages);
    expect(estimate.lastUsageIndex).toBe(2);
    expect(estimate.usageTokens).toBe(200);
    expect(estimate.trailingTokens).toBe(1 + 1 + 1);
  });

  it("estimates everything without usage, and uses the given counter", () => {
    const counter: TokenCounter = { name: "ten", countMessage: () => 10 };
    expect(estimateContextTokens([user("a"), user("b")], { tokenCounter: counter })).toEqual({
      tokens: 20,
      usageTokens: 0,
      trailingTokens: 20,
      lastUsageIndex: null,
    });
  });
});
