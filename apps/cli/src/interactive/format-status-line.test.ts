import { describe, expect, it } from "vitest";
import { formatStatusLine } from "./format-status-line";

describe("formatStatusLine", () => {
  it("shows the model, context usage with its percentage, cost and session", () => {
    expect(
      formatStatusLine({
        model: "anthropic/claude-sonnet-4-5",
        thinkingLevel: "medium",
        tokens: 12_345,
        contextWindow: 200_000,
        cost: 0.01234,
        session: "019ce1a2",
      }),
    ).toBe("anthropic/claude-sonnet-4-5 (medium) · context 12k/200k (6%) · $0.0123 · 019ce1a2");
  });

  it("shows an unknown count after a compaction", () => {
    expect(formatStatusLine({ model: "m", tokens: null, contextWindow: 8192, cost: 0, session: "s" })).toBe(
      "m · context ?/8.2k (compacted) · $0.0000 · s",
    );
  });
});
