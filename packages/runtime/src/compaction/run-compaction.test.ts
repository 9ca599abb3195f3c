/**
 * The compaction pipeline shared by manual, threshold and overflow compaction (`runCompaction`):
 * outcomes, events, what an extension can do, and which summarizer wrote the summary. A real JSONL
 * store; summaries offline, from a compactor, or through the Anthropic SDK from the wire server.
 */
import { serverErrorReply, textReply } from "@arbor/providers/testing";
import type { SessionEntry } from "@arbor/session-store";
import { afterEach, describe, expect, it } from "vitest";
import {
  type CoreHarness,
  closeCoreHarnesses,
  createCoreHarness,
  failingCompactor,
} from "../../test/helpers/core-harness";
import type { SessionBeforeCompactEvent } from "../events/runtime-hooks";
import { runCompaction } from "./run-compaction";

afterEach(closeCoreHarnesses);

const live = () => new AbortController().signal;

/** 10k + 10k tokens of prompts: a compaction keeps the second one and summarizes the first. */
function fill(h: CoreHarness): void {
  h.say("a".repeat(40_000));
  h.say("b".repeat(40_000));
}

function lastEntry(h: CoreHarness): SessionEntry | undefined {
  return h.store.getBranch().at(-1);
}

describe("runCompaction: skipped", () => {
  it("nothing to compact or already compacted: skipped with the reason, nothing emitted", async () => {
    const h = await createCoreHarness();
    h.say("hi");
    expect(await runCompaction(h.core, { reason: "manual", willRetry: false, signal: live() })).toMatchObject(
      {
        status: "skipped",
        error: { code: "NOTHING_TO_COMPACT" },
      },
    );
    fill(h);
    await runCompaction(h.core, { reason: "manual", willRetry: false, signal: live() });
    h.events.length = 0;
    expect(
      await runCompaction(h.core, { reason: "threshold", willRetry: false, signal: live() }),
    ).toMatchObject({
      status: "skipped",
      error: { code: "ALREADY_COMPACTED" },
    });
    expect(h.events).toEqual([]);
  });
});

describe("runCompaction: success", () => {
  it("offline summary: start, fallback notice, the entry, session_compact, then compaction_end with the result", async () => {
    const h = await createCoreHarness();
    fill(h);
    const outcome = await runCompaction(h.core, { reason: "overflow", willRetry: true, signal: live() });
    const entry = lastEntry(h);
    if (outcome.status !== "compacted" || entry?.type !== "compaction")
      throw new Error("expected a compaction");
    const kept = h.store.getBranch()[1];
    expect(entry).toMatchObject({ firstKeptEntryId: kept?.id, fromHook: false });
    expect(entry.tokensBefore).toBeGreaterThanOrEqual(20_000);
    expect(outcome.result).toEqual({
      entryId: entry.id,
      summary: entry.summary,
      firstKeptEntryId: kept?.id,
      tokensBefore: entry.tokensBefore,
      estimatedTokensAfter: expect.any(Number),
      usage: undefined,
      details: entry.details,
      summarizer: "offline",
    });
    expect(outcome.result.estimatedTokensAfter).toBeGreaterThan(10_000);
    expect(outcome.result.estimatedTokensAfter).toBeLessThan(entry.tokensBefore);
    expect(h.events).toEqual([
      { type: "compaction_start", reason: "overflow", willRetry: true },
      {
        type: "compaction_fallback",
        operation: "compaction",
        reason: "overflow",
        errorMessage: "no summary provider is configured",
        errorCode: undefined,
      },
      {
        type: "session_compact",
        compactionEntry: entry,
        fromExtension: false,
        reason: "overflow",
        willRetry: true,
      },
      {
        type: "compaction_end",
        reason: "overflow",
        result: outcome.result,
        aborted: false,
        willRetry: true,
      },
    ]);
  });

  it("a model summary (no fallback notice) with its usage, from the compaction model when one is set", async () => {
    const h = await createCoreHarness({ llmSummaries: true });
    const summaryModel = { ...h.model, id: "claude-cheap" };
    h.core.options.compaction = { model: summaryModel };
    h.server.enqueue(textReply("## Goal\nMODEL-SUMMARY", { usage: { input: 900, output: 40 } }));
    fill(h);
    const outcome = await runCompaction(h.core, {
      reason: "manual",
      willRetry: false,
      customInstructions: "focus on the parser",
      signal: live(),
    });
    if (outcome.status !== "compacted") throw new Error("expected a compaction");
    expect(outcome.result.summarizer).toBe("model");
    expect(outcome.result.summary).toContain("MODEL-SUMMARY");
    expect(outcome.result.usage).toMatchObject({ input: 900, output: 40 });
    expect(lastEntry(h)).toMatchObject({ usage: { input: 900, output: 40 } });
    expect(h.eventTypes()).not.toContain("compaction_fallback");
    const request = h.server.requests.at(-1)?.body as { model: string };
    expect(request.model).toBe("claude-cheap");
    expect(JSON.stringify(h.server.requests.at(-1)?.body)).toContain("focus on the parser");
  });

  it("the summary request uses the session's model and thinking level unless told otherwise", async () => {
    const h = await createCoreHarness({ llmSummaries: true });
    h.core.model = { ...h.model, reasoning: true, maxTokens: 32_000 };
    h.server.enqueue(textReply("## Goal\nPLAIN"));
    fill(h);
    await runCompaction(h.core, { reason: "manual", willRetry: false, signal: live() });
    const plain = h.server.requests.at(-1)?.body as { model: string; thinking?: unknown };
    expect(plain.model).toBe("claude-test");
    expect(plain.thinking).toBeUndefined();

    h.core.thinkingLevel = "high";
    h.server.enqueue(textReply("## Goal\nTHOUGHT"));
    fill(h);
    await runCompaction(h.core, { reason: "manual", willRetry: false, signal: live() });
    const thought = h.server.requests.at(-1)?.body as { thinking?: { type: string } };
    expect(thought.thinking?.type).toBe("enabled");
  });

  it("a failing model summary falls back to the offline summarizer and says why", async () => {
    const h = await createCoreHarness({ llmSummaries: true });
    h.server.enqueue(serverErrorReply(500));
    fill(h);
    const outcome = await runCompaction(h.core, { reason: "threshold", willRetry: false, signal: live() });
    expect(outcome.status).toBe("compacted");
    const fallback = h.events.find((event) => event.type === "compaction_fallback");
    expect(fallback).toMatchObject({
      operation: "compaction",
      reason: "threshold",
      errorCode: expect.any(String),
    });
    expect(fallback).toHaveProperty("errorMessage", expect.stringContaining("Internal server error"));
  });

  it("with offlineFallback false a failing model summary fails the compaction", async () => {
    const h = await createCoreHarness({
      llmSummaries: true,
      settings: { compaction: { reserveTokens: 10_000, keepRecentTokens: 4000, offlineFallback: false } },
    });
    h.server.enqueue(serverErrorReply(500));
    fill(h);
    const outcome = await runCompaction(h.core, { reason: "threshold", willRetry: false, signal: live() });
    expect(outcome).toMatchObject({ status: "failed", aborted: false, error: { code: "COMPACTION_FAILED" } });
    expect(lastEntry(h)?.type).toBe("message");
  });

  it("a compactor writes the summary (no fallback notice even without a summary provider)", async () => {
    const h = await createCoreHarness({
      compaction: {
        compactor: {
          name: "template",
          async compact(preparation, options) {
            return {
              summary: `TEMPLATE ${options?.customInstructions ?? "-"}`,
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
    fill(h);
    const outcome = await runCompaction(h.core, {
      reason: "manual",
      willRetry: false,
      customInstructions: "keep it short",
      signal: live(),
    });
    if (outcome.status !== "compacted") throw new Error("expected a compaction");
    expect(outcome.result.summary).toBe("TEMPLATE keep it short");
    expect(h.eventTypes()).toEqual(["compaction_start", "session_compact", "compaction_end"]);
  });
});

describe("runCompaction: extensions", () => {
  it("session_before_compact sees the preparation, the branch and the call, and may supply the compaction", async () => {
    const h = await createCoreHarness();
    fill(h);
    const seen: SessionBeforeCompactEvent[] = [];
    h.core.bus.on("session_before_compact", (event) => {
      seen.push(event);
      return {
        compaction: {
          summary: "FROM EXTENSION",
          firstKeptEntryId: "",
          tokensBefore: 123,
          details: { by: "x" },
        },
      };
    });
    const signal = live();
    const outcome = await runCompaction(h.core, {
      reason: "threshold",
      willRetry: false,
      customInstructions: "why",
      signal,
    });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      type: "session_before_compact",
      branchEntries: h.store.getBranch().slice(0, 2),
      customInstructions: "why",
      reason: "threshold",
      willRetry: false,
      signal,
    });
    expect(seen[0]?.preparation.firstKeptEntryId).toBe(h.store.getBranch()[1]?.id);
    const entry = lastEntry(h);
    expect(entry).toMatchObject({
      type: "compaction",
      summary: "FROM EXTENSION",
      firstKeptEntryId: entry?.id,
      tokensBefore: 123,
      details: { by: "x" },
      fromHook: true,
    });
    if (outcome.status !== "compacted") throw new Error("expected a compaction");
    expect(outcome.result.summarizer).toBe("extension");
    expect(h.events.find((event) => event.type === "session_compact")).toMatchObject({ fromExtension: true });
    expect(h.eventTypes()).not.toContain("compaction_fallback");
  });

  it("a cancel from an extension: cancelled (aborted events without an error message), nothing written", async () => {
    const h = await createCoreHarness();
    fill(h);
    h.core.bus.on("session_before_compact", () => ({ cancel: true }), { extensionId: "guard" });
    const outcome = await runCompaction(h.core, { reason: "manual", willRetry: false, signal: live() });
    expect(outcome).toMatchObject({
      status: "failed",
      aborted: true,
      error: { code: "COMPACTION_CANCELLED", message: "Compaction cancelled by extension guard" },
    });
    expect(h.events.slice(1)).toEqual([
      { type: "compaction_end", reason: "manual", result: undefined, aborted: true, willRetry: false },
      {
        type: "session_compact_failed",
        reason: "manual",
        aborted: true,
        willRetry: false,
        fromExtension: false,
      },
    ]);
    expect(lastEntry(h)?.type).toBe("message");

    const anonymous = await createCoreHarness();
    fill(anonymous);
    anonymous.core.bus.on("session_before_compact", () => ({ cancel: true }));
    expect(
      await runCompaction(anonymous.core, { reason: "manual", willRetry: false, signal: live() }),
    ).toMatchObject({
      error: { message: "Compaction cancelled by extension (unnamed)" },
    });
  });
});

describe("runCompaction: failures", () => {
  it.each([
    ["overflow", "Context overflow recovery failed: summary service down"],
    ["threshold", "Auto-compaction failed: summary service down"],
    ["manual", "Compaction failed: summary service down"],
  ] as const)(
    "a failed %s compaction reports `%s`, writes nothing, never retries",
    async (reason, message) => {
      const h = await createCoreHarness({
        compaction: { compactor: failingCompactor("summary service down") },
      });
      fill(h);
      const outcome = await runCompaction(h.core, { reason, willRetry: true, signal: live() });
      if (outcome.status !== "failed") throw new Error("expected a failure");
      expect(outcome.aborted).toBe(false);
      expect(outcome.error.code).toBe("COMPACTION_FAILED");
      expect(outcome.error.message).toBe(message);
      expect((outcome.error.cause as Error).message).toBe("summary service down");
      expect(h.events).toEqual([
        { type: "compaction_start", reason, willRetry: true },
        {
          type: "compaction_end",
          reason,
          result: undefined,
          aborted: false,
          willRetry: false,
          errorMessage: message,
        },
        {
          type: "session_compact_failed",
          reason,
          errorMessage: message,
          aborted: false,
          willRetry: true,
          fromExtension: false,
        },
      ]);
      expect(lastEntry(h)?.type).toBe("message");
    },
  );

  it("an aborted signal cancels before any summary: COMPACTION_CANCELLED, aborted events", async () => {
    const compactor = failingCompactor("never called");
    const h = await createCoreHarness({ compaction: { compactor } });
    fill(h);
    const controller = new AbortController();
    controller.abort();
    const outcome = await runCompaction(h.core, {
      reason: "manual",
      willRetry: false,
      signal: controller.signal,
    });
    expect(outcome).toMatchObject({
      status: "failed",
      aborted: true,
      error: { code: "COMPACTION_CANCELLED", message: "Compaction aborted" },
    });
    expect(compactor.calls).toBe(0);
    expect(h.events.at(-1)).toEqual({
      type: "session_compact_failed",
      reason: "manual",
      aborted: true,
      willRetry: false,
      fromExtension: false,
    });
  });

  it("an abort while the extension runs cancels after it", async () => {
    const compactor = failingCompactor("never called");
    const h = await createCoreHarness({ compaction: { compactor } });
    fill(h);
    const controller = new AbortController();
    h.core.bus.on("session_before_compact", () => {
      controller.abort();
      return undefined;
    });
    const outcome = await runCompaction(h.core, {
      reason: "manual",
      willRetry: false,
      signal: controller.signal,
    });
    expect(outcome).toMatchObject({
      status: "failed",
      aborted: true,
      error: { code: "COMPACTION_CANCELLED" },
    });
    expect(compactor.calls).toBe(0);
  });
});
