import { describe, expect, it } from "vitest";
import { computeRetryDelay, resolveRetryOptions } from "./compute-retry-delay";

describe("computeRetryDelay", () => {
  const policy = resolveRetryOptions({ baseDelayMs: 100, maxDelayMs: 1000, jitter: 0.5 });

  it("doubles the wait per retry and caps it", () => {
    const middle = () => 0.5;
    expect([1, 2, 3, 4, 5].map((retry) => computeRetryDelay(retry, policy, undefined, middle))).toEqual([
      100, 200, 400, 800, 1000,
    ]);
  });

  it("spreads the wait by the jitter fraction", () => {
    expect(computeRetryDelay(2, policy, undefined, () => 0)).toBe(100);
    expect(computeRetryDelay(2, policy, undefined, () => 0.999_999)).toBe(300);
  });

  it("uses the provider's wait and gives up when it exceeds the cap", () => {
    expect(computeRetryDelay(1, policy, 700)).toBe(700);
    expect(computeRetryDelay(1, policy, 1001)).toBeUndefined();
  });

  it("fills defaults and clamps bad values", () => {
    expect(resolveRetryOptions(undefined)).toEqual({
      maxRetries: 2,
      baseDelayMs: 1000,
      maxDelayMs: 30_000,
      jitter: 0.2,
    });
    expect(resolveRetryOptions({ maxRetries: -3, jitter: 4 })).toMatchObject({ maxRetries: 0, jitter: 1 });
  });
});
