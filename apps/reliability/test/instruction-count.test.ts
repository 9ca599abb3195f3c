import { describe, expect, it } from "vitest";
import { countInstructions } from "../../../bench/instructions.mjs";

/**
 * bench/instructions.mjs counts what a node process executes under valgrind: the count must repeat
 * (that is its point on a noisy machine), grow with the work done, and a failing command must not
 * pass for a count. valgrind is installed by .ci/run.
 */
describe("countInstructions (bench/instructions.mjs)", () => {
  it("repeats to within 1% for the same command and sees a loop of a million steps", () => {
    const first: number = countInstructions(["-e", "0"]);
    const second: number = countInstructions(["-e", "0"]);
    const loop = countInstructions([
      "-e",
      "let s = 0; for (let i = 0; i < 1e6; i++) s += i; if (s < 0) throw 0",
    ]) as number;
    expect(first).toBeGreaterThan(100e6);
    expect(Math.abs(first - second) / first).toBeLessThan(0.01);
    expect(loop - first).toBeGreaterThan(2e6);
  }, 120_000);

  it("throws for a command that fails instead of counting it", () => {
    expect(() => countInstructions(["-e", "process.exit(3)"])).toThrow(/failed/);
  }, 60_000);
});
