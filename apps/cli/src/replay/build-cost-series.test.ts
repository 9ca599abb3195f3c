import { describe, expect, it } from "vitest";
import { buildCostSeries } from "./build-cost-series";

describe("buildCostSeries", () => {
  const requests = [
    { contextTokens: 100, costUsd: 1, entriesBefore: 1 },
    { contextTokens: 200, costUsd: 2, entriesBefore: 3 },
    { contextTokens: 50, costUsd: 0.5, entriesBefore: 6 },
  ];

  it("adds each request's cost, and a summary from the first request sent after its entry", () => {
    // The compaction is entry 4 (written after the second request, which saw 3 entries).
    const points = buildCostSeries(requests, [{ entryIndex: 4, costUsd: 10 }]);
    expect(points).toEqual([
      { contextTokens: 100, cumulativeCostUsd: 1 },
      { contextTokens: 200, cumulativeCostUsd: 3 },
      { contextTokens: 50, cumulativeCostUsd: 13.5 },
    ]);
  });

  it("counts a summary written after the last request in the last point, so it ends at the total", () => {
    const points = buildCostSeries(requests, [
      { entryIndex: 9, costUsd: 4 },
      { entryIndex: 0, costUsd: 0.25 },
    ]);
    expect(points.map((point) => point.cumulativeCostUsd)).toEqual([1.25, 3.25, 7.75]);
  });

  it("is the requests alone without summaries, and empty without requests", () => {
    expect(buildCostSeries(requests, []).map((point) => point.cumulativeCostUsd)).toEqual([1, 3, 3.5]);
    expect(buildCostSeries([], [{ entryIndex: 0, costUsd: 1 }])).toEqual([]);
  });
});
