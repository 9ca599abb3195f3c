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

  it("charts a path of a million entries (400,000 answers), its axes up to the largest value", () => {
    const points = Array.from({ length: 400_000 }, (_, i) => ({
      contextTokens: i === 123_456 ? 180_000 : 1000 + (i % 5000),
      cumulativeCostUsd: i / 1000,
    }));
    const svg = renderUsageChart(points, "long");
    // The largest context (180,000) and cost ($400, so $500) set the top ticks; at most ~600 points per line.
    expect(svg).toContain(">200k</text>");
    expect(svg).toContain(">$500</text>");
    for (const line of svg.match(/points="[^"]*"/g) ?? []) expect(line.split(" ").length).toBeLessThan(700);
  });
});
