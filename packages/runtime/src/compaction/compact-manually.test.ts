/**
 * Manual compaction (`compactManually`, what `session.compact()` runs): failures are reported the
 * way pi reports them and leave the session unchanged; a success lifts the loop guard's stalled mark.
 */
import { afterEach, describe, expect, it } from "vitest";
import { closeCoreHarnesses, createCoreHarness, failingCompactor } from "../../test/helpers/core-harness";
import { runAutoCompaction } from "./auto-compaction";
import { compactManually } from "./compact-manually";

afterEach(closeCoreHarnesses);

const signal = new AbortController().signal;

describe("compactManually", () => {
  it("on an empty session: NOTHING_TO_COMPACT, reported as a failed compaction, nothing written", async () => {
    const h = await createCoreHarness();
    await expect(compactManually(h.core, undefined, signal)).rejects.toMatchObject({
      code: "NOTHING_TO_COMPACT",
      message: "Nothing to compact (session too small)",
    });
    const errorMessage = "Compaction failed: Nothing to compact (session too small)";
    expect(h.events).toEqual([
      { type: "compaction_start", reason: "manual", willRetry: false },
      {
        type: "compaction_end",
        reason: "manual",
        result: undefined,
        aborted: false,
        willRetry: false,
        errorMessage,
      },
      {
        type: "session_compact_failed",
        reason: "manual",
        errorMessage,
        aborted: false,
        willRetry: false,
        fromExtension: false,
      },
    ]);
    expect(h.store.getBranch()).toEqual([]);
  });

  it("right after a compaction: ALREADY_COMPACTED", async () => {
    const h = await createCoreHarness();
    h.say("x".repeat(40_000));
    h.say("y".repeat(40_000));
    await compactManually(h.core, undefined, signal);
    await expect(compactManually(h.core, undefined, signal)).rejects.toMatchObject({
      code: "ALREADY_COMPACTED",
      message: "Already compacted: the branch ends with a compaction",
    });
    expect(h.store.getBranch().filter((entry) => entry.type === "compaction")).toHaveLength(1);
  });

  it("returns the result and lifts the stalled mark, so threshold compaction runs again", async () => {
    const h = await createCoreHarness();
    h.say("a".repeat(8000));
    h.say("b".repeat(124_000));
    expect(await runAutoCompaction(h.core, h.newRun(), "threshold", false)).toBe("stopped");
    expect(h.core.stalledCompactionId).toBeDefined();
    h.say("c".repeat(20_000));
    const result = await compactManually(h.core, "focus on c", signal);
    expect(result.entryId).toBe(h.store.getBranch().at(-1)?.id);
    expect(h.core.stalledCompactionId).toBeUndefined();
  });

  it("runs a manual compaction without retry, with the instructions only when given; a failure is reported once", async () => {
    const seen: Array<string | undefined> = [];
    const h = await createCoreHarness({
      compaction: {
        compactor: {
          name: "recording",
          async compact(preparation, options) {
            seen.push(options && "customInstructions" in options ? options.customInstructions : "(none)");
            return {
              summary: "S",
              firstKeptEntryId: preparation.firstKeptEntryId,
              tokensBefore: preparation.tokensBefore,
              details: { readFiles: [], modifiedFiles: [] },
              summarizer: "offline",
            };
          },
          async summarizeBranch() {
            throw new Error("not used");
          },
        },
      },
    });
    h.say("x".repeat(40_000));
    h.say("y".repeat(40_000));
    await compactManually(h.core, "focus", signal);
    h.say("z".repeat(40_000));
    await compactManually(h.core, undefined, signal);
    expect(seen).toEqual(["focus", "(none)"]);
    expect(h.events.filter((event) => event.type === "compaction_start")).toEqual([
      { type: "compaction_start", reason: "manual", willRetry: false },
      { type: "compaction_start", reason: "manual", willRetry: false },
    ]);

    const failing = await createCoreHarness({ compaction: { compactor: failingCompactor("down") } });
    failing.say("x".repeat(40_000));
    failing.say("y".repeat(40_000));
    await expect(compactManually(failing.core, undefined, signal)).rejects.toMatchObject({
      code: "COMPACTION_FAILED",
    });
    expect(failing.eventTypes()).toEqual(["compaction_start", "compaction_end", "session_compact_failed"]);
  });
});
