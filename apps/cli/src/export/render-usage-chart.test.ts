import type { SessionEntry } from "@arbor/session-store";
import { describe, expect, it } from "vitest";
import { renderUsageChart, usageSeries } from "./render-usage-chart";

const answer = (input: number, cacheRead: number, cost: number) =>
  ({
    type: "message",
    id: `a${input}`,
    parentId: null,
    timestamp: "",
    message: {
      role: "assistant",
      content: [],
      usage: { input, output: 5, cacheRead, cacheWrite: 0, totalTokens: 0, cost: { total: cost } },
      timestamp: 0,
    },
  }) as unknown as SessionEntry;

describe("usageSeries / renderUsageChart", () => {
  it("one point per answer with usage: the prompt it answered and the cumulative cost", () => {
    const user = {
      type: "message",
      id: "u",
      parentId: null,
      timestamp: "",
      message: { role: "user", content: "hi" },
    };
    const series = usageSeries([
      user as SessionEntry,
      answer(100, 900, 0.5),
      answer(0, 0, 0),
      answer(50, 1000, 0.25),
    ]);
    expect(series).toEqual([
      { contextTokens: 1000, cumulativeCostUsd: 0.5 },
      { contextTokens: 1050, cumulativeCostUsd: 0.75 },
    ]);
  });

  it("renders two panels as inline SVG with an escaped title, nothing without usage", () => {
    const svg = renderUsageChart(
      [
        { contextTokens: 10, cumulativeCostUsd: 1 },
        { contextTokens: 20, cumulativeCostUsd: 2 },
      ],
      "</title><script>x</script>",
    );
    expect(svg).toMatch(/^<svg /);
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    expect(svg).not.toContain("<script>");
    expect(svg).not.toContain("style=");
    expect(renderUsageChart([], "t")).toBe("");
  });
});
