/**
 * Scheduling of automatic compactions (`runAutoCompaction`, `compactBeforeNextResponse`): the loop
 * guard, the stalled-compaction guard, suppression after a failure. A real JSONL store, offline
 * summaries. Window 40000, reserve 10000: the threshold is 30000 tokens; keepRecentTokens 4000.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  type CoreHarness,
  closeCoreHarnesses,
  createCoreHarness,
  failingCompactor,
} from "../../test/helpers/core-harness";
import { RuntimeError } from "../runtime-error";
import { compactBeforeNextResponse, runAutoCompaction } from "./auto-compaction";

afterEach(closeCoreHarnesses);

/** `n` thousand tokens of text (chars / 4). */
function kiloTokens(n: number, letter = "x"): string {
  return letter.repeat(n * 4000);
}

/** Two prompts of 16k tokens each: 32k, above the threshold; a compaction keeps the second one. */
function fillAboveThreshold(h: CoreHarness, letter = "a"): void {
  h.say(kiloTokens(16, letter));
  h.say(kiloTokens(16, letter));
}

function compactions(h: CoreHarness): number {
  return h.store.getBranch().filter((entry) => entry.type === "compaction").length;
}

function starts(h: CoreHarness): unknown[] {
  return h.events.filter((event) => event.type === "compaction_start");
}

describe("runAutoCompaction", () => {
  it("compacts, counts the compaction and reports `compacted` when the context is now under the threshold", async () => {
    const h = await createCoreHarness();
    fillAboveThreshold(h);
    const run = h.newRun();
    expect(await runAutoCompaction(h.core, run, "threshold", false)).toBe("compacted");
    expect(compactions(h)).toBe(1);
    expect(run.consecutiveAutoCompactions).toBe(1);
    expect(starts(h)).toEqual([{ type: "compaction_start", reason: "threshold", willRetry: false }]);
    expect(run.error).toBeUndefined();
  });

  it("the loop guard: after maxConsecutiveAutoCompactions in a row it stops the prompt instead of compacting", async () => {
    const h = await createCoreHarness();
    const run = h.newRun({ maxConsecutiveAutoCompactions: 2 });
    fillAboveThreshold(h, "a");
    expect(await runAutoCompaction(h.core, run, "threshold", false)).toBe("compacted");
    fillAboveThreshold(h, "b");
    expect(await runAutoCompaction(h.core, run, "threshold", false)).toBe("compacted");
    fillAboveThreshold(h, "c");
    // The context is above the threshold again, but two compactions in a row are the cap.
    expect(await runAutoCompaction(h.core, run, "overflow", true)).toBe("stopped");
    expect(compactions(h)).toBe(2);
    expect(run.error?.code).toBe("COMPACTION_LOOP_GUARD");
    expect(run.error?.message).toBe(
      "Stopped after 2 automatic compactions in a row without a successful response; not compacting again",
    );
    expect(h.events.filter((event) => event.type === "session_error")).toEqual([
      { type: "session_error", error: run.error },
    ]);
    // Once stopped, nothing more happens in this prompt.
    expect(await runAutoCompaction(h.core, run, "overflow", true)).toBe("not-compacted");
    expect(h.events.filter((event) => event.type === "session_error")).toHaveLength(1);
  });

  it("stops with CONTEXT_STILL_TOO_LARGE when the kept part alone is above the threshold, and marks the compaction stalled", async () => {
    const h = await createCoreHarness();
    h.say(kiloTokens(2, "a"));
    h.say(kiloTokens(31, "b"));
    const run = h.newRun();
    expect(await runAutoCompaction(h.core, run, "threshold", false)).toBe("stopped");
    const compaction = h.store.getBranch().at(-1);
    expect(compaction?.type).toBe("compaction");
    expect(h.core.stalledCompactionId).toBe(compaction?.id);
    expect(run.consecutiveAutoCompactions).toBe(1);
    const error = run.error;
    expect(error?.code).toBe("CONTEXT_STILL_TOO_LARGE");
    expect(error?.threshold).toBe(30_000);
    expect(error?.contextWindow).toBe(40_000);
    expect(error?.tokens).toBeGreaterThan(31_000);
    expect(error?.message).toContain(
      `Compaction ${compaction?.id} left about ${error?.tokens} context tokens`,
    );
    expect(error?.message).toContain("threshold of 30000 (context window 40000 - reserveTokens 10000)");
    expect(h.events.at(-1)).toEqual({ type: "session_error", error });
  });

  it("while the stalled compaction is the latest, threshold compaction is skipped; overflow recovery still compacts", async () => {
    const h = await createCoreHarness();
    h.say(kiloTokens(2, "a"));
    h.say(kiloTokens(31, "b"));
    await runAutoCompaction(h.core, h.newRun(), "threshold", false);
    h.say(kiloTokens(5, "c"));
    h.events.length = 0;

    expect(await runAutoCompaction(h.core, h.newRun(), "threshold", false)).toBe("not-compacted");
    expect(h.events).toEqual([]);
    expect(compactions(h)).toBe(1);

    await runAutoCompaction(h.core, h.newRun(), "overflow", true);
    expect(starts(h)).toEqual([{ type: "compaction_start", reason: "overflow", willRetry: true }]);
    expect(compactions(h)).toBe(2);
  });

  it("a newer compaction lifts the stalled mark: threshold compaction runs again", async () => {
    const h = await createCoreHarness();
    h.say(kiloTokens(2, "a"));
    h.say(kiloTokens(31, "b"));
    await runAutoCompaction(h.core, h.newRun(), "threshold", false);
    const kept = h.say(kiloTokens(1, "c"));
    h.store.appendCompaction({ summary: "by hand", firstKeptEntryId: h.idOf(kept), tokensBefore: 33_000 });
    fillAboveThreshold(h, "d");
    expect(await runAutoCompaction(h.core, h.newRun(), "threshold", false)).toBe("compacted");
  });

  it("a stalled compaction on another branch does not hold back threshold compaction on this one", async () => {
    const h = await createCoreHarness();
    const first = h.say(kiloTokens(2, "a"));
    h.say(kiloTokens(31, "b"));
    expect(await runAutoCompaction(h.core, h.newRun(), "threshold", false)).toBe("stopped");
    expect(h.core.stalledCompactionId).toBeDefined();
    h.store.branch(h.idOf(first));
    fillAboveThreshold(h, "c");
    expect(await runAutoCompaction(h.core, h.newRun(), "threshold", false)).toBe("compacted");
  });

  it("a failed compaction suppresses threshold compaction for the rest of the prompt, not overflow recovery", async () => {
    const compactor = failingCompactor("summary service down");
    const h = await createCoreHarness({ compaction: { compactor } });
    fillAboveThreshold(h);
    const run = h.newRun();
    expect(await runAutoCompaction(h.core, run, "threshold", false)).toBe("not-compacted");
    expect(compactor.calls).toBe(1);
    expect(run.autoCompactionSuppressed).toBe(true);
    expect(h.events.find((event) => event.type === "session_compact_failed")).toMatchObject({
      reason: "threshold",
      errorMessage: "Auto-compaction failed: summary service down",
    });

    expect(await runAutoCompaction(h.core, run, "threshold", false)).toBe("not-compacted");
    expect(compactor.calls).toBe(1);
    await runAutoCompaction(h.core, run, "overflow", true);
    expect(compactor.calls).toBe(2);
    // A new prompt tries again.
    await runAutoCompaction(h.core, h.newRun(), "threshold", false);
    expect(compactor.calls).toBe(3);
    expect(run.consecutiveAutoCompactions).toBe(0);
  });

  it("a compaction cancelled by an extension is no failure: the next check tries again", async () => {
    const h = await createCoreHarness();
    let asked = 0;
    h.core.bus.on("session_before_compact", () => {
      asked++;
      return { cancel: true };
    });
    fillAboveThreshold(h);
    const run = h.newRun();
    expect(await runAutoCompaction(h.core, run, "threshold", false)).toBe("not-compacted");
    expect(run.autoCompactionSuppressed).toBe(false);
    expect(await runAutoCompaction(h.core, run, "threshold", false)).toBe("not-compacted");
    expect(asked).toBe(2);
    expect(compactions(h)).toBe(0);
  });

  it("nothing to compact: `not-compacted`, no events, not counted", async () => {
    const h = await createCoreHarness();
    h.say("hi");
    const run = h.newRun();
    expect(await runAutoCompaction(h.core, run, "overflow", true)).toBe("not-compacted");
    expect(h.events).toEqual([]);
    expect(run.consecutiveAutoCompactions).toBe(0);
    expect(run.autoCompactionSuppressed).toBe(false);
  });

  it("an aborted or already stopped prompt does not compact", async () => {
    const h = await createCoreHarness();
    fillAboveThreshold(h);
    const controller = new AbortController();
    controller.abort();
    expect(await runAutoCompaction(h.core, h.newRun({ signal: controller.signal }), "overflow", true)).toBe(
      "not-compacted",
    );
    const stopped = h.newRun();
    stopped.error = new RuntimeError("OVERFLOW_RECOVERY_FAILED", "stopped");
    expect(await runAutoCompaction(h.core, stopped, "overflow", true)).toBe("not-compacted");
    expect(h.events).toEqual([]);
  });
});

describe("compactBeforeNextResponse", () => {
  it("compacts when the projected context is above the threshold", async () => {
    const h = await createCoreHarness();
    fillAboveThreshold(h);
    await compactBeforeNextResponse(h.core, h.newRun());
    expect(starts(h)).toEqual([{ type: "compaction_start", reason: "threshold", willRetry: false }]);
    expect(compactions(h)).toBe(1);
  });

  it("counts the context with the session's token counter", async () => {
    // A message's JSON length: about four times the default chars / 4.
    const tokenCounter = {
      name: "json-length",
      countMessage: (message: unknown) => JSON.stringify(message).length,
    };
    const heavy = await createCoreHarness({ compaction: { provider: null, tokenCounter } });
    heavy.say(kiloTokens(4, "a"));
    heavy.say(kiloTokens(4, "b"));
    await compactBeforeNextResponse(heavy.core, heavy.newRun());
    expect(compactions(heavy)).toBe(1);

    const plain = await createCoreHarness();
    plain.say(kiloTokens(4, "a"));
    plain.say(kiloTokens(4, "b"));
    await compactBeforeNextResponse(plain.core, plain.newRun());
    expect(plain.events).toEqual([]);
  });

  it("does nothing at or below the threshold", async () => {
    const h = await createCoreHarness();
    // Exactly at the threshold: 15000 + 15000 tokens.
    h.say(kiloTokens(15, "a"));
    h.say(kiloTokens(15, "b"));
    await compactBeforeNextResponse(h.core, h.newRun());
    expect(h.events).toEqual([]);
  });
});
