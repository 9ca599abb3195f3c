import type { AgentMessage } from "@arbor/agent-loop";
import { describe, expect, it } from "vitest";
import { chineseText, jsonListing, turnMessages } from "../internal/testing/corpora";
import { assistant, usage } from "../internal/testing/messages";
import { createTiktokenCounter } from "../tiktoken/create-tiktoken-counter";
import { calibrationKey, createCalibratedEstimator } from "./create-calibrated-estimator";
import { estimateContextTokens } from "./estimate-context-tokens";
import { defaultTokenCounter } from "./token-counter";

// Stands in for the provider: it reports the exact prompt size of what it was sent.
const exact = createTiktokenCounter({ encoding: "cl100k_base", messageOverheadTokens: 4 });

function exactTokens(messages: readonly AgentMessage[]): number {
  return messages.reduce((sum, message) => sum + exact.countMessage(message), 0);
}

/** Plays `turns` turns, feeding each response's reported usage to the estimator; returns the context. */
function play(
  estimator: ReturnType<typeof createCalibratedEstimator>,
  turns: number,
  resultOf: (turn: number) => string,
) {
  const context: AgentMessage[] = [];
  for (let turn = 0; turn < turns; turn++) {
    context.push(...turnMessages(turn, resultOf(turn)).slice(0, 3));
    const response = assistant(`Part ${turn} inspected.`, {
      usage: usage(exactTokens(context), 10),
      model: "model-x",
    });
    estimator.observeResponse(context, response);
    context.push(response);
  }
  return context;
}

function relativeError(estimate: number, truth: number): number {
  return Math.abs(estimate - truth) / truth;
}

describe("createCalibratedEstimator", () => {
  it.each([
    ["JSON tool output", (turn: number) => jsonListing(turn, 12)],
    ["Chinese text", (turn: number) => chineseText(turn, 40)],
  ])("converges on %s where chars/4 is far off", { timeout: 30_000 }, (_name, resultOf) => {
    const estimator = createCalibratedEstimator();
    const context = play(estimator, 12, resultOf);
    const key = calibrationKey({ provider: "anthropic", model: "model-x" });
    const truth = exactTokens(context);
    // Estimate the whole context from text alone (usage dropped), as after a compaction or an edit.
    const withoutUsage = context.map(
      (message) => ({ ...message, usage: undefined }) as unknown as AgentMessage,
    );
    const raw = estimateContextTokens(withoutUsage, { tokenCounter: defaultTokenCounter }).tokens;
    const calibrated = estimateContextTokens(withoutUsage, { tokenCounter: estimator.forModel(key) }).tokens;
    expect(relativeError(raw, truth)).toBeGreaterThan(0.25);
    expect(relativeError(calibrated, truth)).toBeLessThan(0.1);
    expect(estimator.toJSON()[key]?.samples).toBe(12);
  });

  it("keeps models apart, ignores bad samples and restores saved state", () => {
    const estimator = createCalibratedEstimator({ smoothing: 0.5 });
    expect(estimator.ratio("a/m")).toBe(1);
    expect(estimator.observe("a/m", { estimatedTokens: 1000, reportedTokens: 2000 })).toBe(2);
    expect(estimator.observe("a/m", { estimatedTokens: 1000, reportedTokens: 1000 })).toBe(1.5);
    expect(estimator.observe("a/m", { estimatedTokens: 10, reportedTokens: 5000 })).toBe(1.5);
    expect(estimator.observe("a/m", { estimatedTokens: 1000, reportedTokens: Number.NaN })).toBe(1.5);
    expect(estimator.ratio("b/m")).toBe(1);
    const counter = estimator.forModel("a/m");
    expect(counter.countMessage({ role: "user", content: "x".repeat(400), timestamp: 0 })).toBe(150);
    estimator.observe("a/m", { estimatedTokens: 1000, reportedTokens: 3000 });
    // A snapshot never changes; a new one uses the new ratio.
    expect(counter.countMessage({ role: "user", content: "x".repeat(400), timestamp: 0 })).toBe(150);
    expect(
      estimator.forModel("a/m").countMessage({ role: "user", content: "x".repeat(400), timestamp: 0 }),
    ).toBe(225);
    const restored = createCalibratedEstimator({ initialState: estimator.toJSON() });
    expect(restored.ratio("a/m")).toBe(2.25);
  });

  it("skips aborted and failed responses", () => {
    const estimator = createCalibratedEstimator();
    const context = turnMessages(0, jsonListing(1, 20));
    expect(
      estimator.observeResponse(context, assistant("x", { usage: usage(5000), stopReason: "aborted" })),
    ).toBeUndefined();
    expect(
      estimator.observeResponse(context, assistant("x", { usage: usage(5000), stopReason: "error" })),
    ).toBeUndefined();
    expect(estimator.observeResponse(context, assistant("x", { usage: usage(0, 0, 0) }))).toBeUndefined();
    expect(estimator.toJSON()).toEqual({});
  });
});
