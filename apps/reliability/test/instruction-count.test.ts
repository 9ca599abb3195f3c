import { describe, expect, it } from "vitest";
import { countInstructions } from "../../../bench/instructions.mjs";

/**
 * bench/instructions.mjs counts what a node process executes under valgrind: the count must repeat
 * (that is its point on a noisy machine), grow with the work done, and a failing command must not
 * pass for a count. valgrind is installed by .ci/run.
 */
describe("countInstructions (bench/instructions.mjs)", () => {
  it("repeats to within a few million instructions for the same command and sees a loop of a million steps", () => {
    const first: number = countInstructions(["-e", "0"]);
    const second: number = countInstructions(["-e", "0"]);
    const loop = countInstructions([
      "-e",
      "let s = 0; for (let i = 0; i < 1e6; i++) s += i; if (s < 0) throw 0",
    ]) as number;
    expect(first).toBeGreaterThan(100e6);
    // Node's start-up varies by a few million instructions from run to run (about 1% of `node -e 0`).
    expect(Math.abs(first - second)).toBeLessThan(15e6);
    // The loop adds about 100 M (interpreted, then compiled on the main thread): far above that noise.
    expect(loop - first).toBeGreaterThan(50e6);
  }, 120_000);

  it("throws for a command that fails instead of counting it", () => {
    expect(() => countInstructions(["-e", "process.exit(3)"])).toThrow(/failed/);
  }, 60_000);
});
