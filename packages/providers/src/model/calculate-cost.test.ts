import { describe, expect, it } from "vitest";
import { createEmptyUsage } from "../create-empty-usage";
import { calculateCost } from "./calculate-cost";

describe("calculateCost", () => {
  const model = { cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } };

  it("prices each kind of token per million", () => {
    const usage = {
      ...createEmptyUsage(),
      input: 1_000_000,
      output: 100_000,
      cacheRead: 2_000_000,
      cacheWrite: 400_000,
    };
    const cost = calculateCost(model, usage);
    expect(cost.input).toBeCloseTo(3, 10);
    expect(cost.output).toBeCloseTo(1.5, 10);
    expect(cost.cacheRead).toBeCloseTo(0.6, 10);
    expect(cost.cacheWrite).toBeCloseTo(1.5, 10);
    expect(cost.total).toBeCloseTo(6.6, 10);
  });

  it("bills one-hour cache writes at twice the input rate", () => {
    const usage = { ...createEmptyUsage(), cacheWrite: 1_000_000, cacheWrite1h: 400_000 };
    expect(calculateCost(model, usage).cacheWrite).toBeCloseTo(0.6 * 3.75 + 0.4 * 6, 10);
  });
});
