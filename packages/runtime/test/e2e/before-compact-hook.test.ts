import { defineExtension } from "@arbor/extensions";
import { overflowReply, textReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import type { SessionBeforeCompactEvent, SessionBeforeCompactResult } from "../../src/events/runtime-hooks";
import type { RuntimeExtensionApi } from "../../src/extensions/runtime-extension-api";
import { closeHarnesses, createHarness, scriptReplies } from "../helpers/harness";

afterEach(closeHarnesses);

const settings = { compaction: { reserveTokens: 10_000, keepRecentTokens: 4000 } };

function compactHook(
  respond: (event: SessionBeforeCompactEvent) => SessionBeforeCompactResult | undefined,
  seen: SessionBeforeCompactEvent[] = [],
) {
  return defineExtension<RuntimeExtensionApi>({
    apiVersion: 1,
    name: "compact-hook",
    setup(api) {
      api.on("session_before_compact", (event) => {
        seen.push(event);
        return respond(event);
      });
    },
  });
}

async function twoBigPrompts(h: Awaited<ReturnType<typeof createHarness>>) {
  await h.session.prompt(`first ${"a".repeat(20_000)}`);
  await h.session.prompt(`second ${"b".repeat(20_000)}`);
}

describe("session_before_compact through createAgentSession", () => {
  it("hands every payload field; a custom result is stored with fromHook and no summary request", async () => {
    const seen: SessionBeforeCompactEvent[] = [];
    const h = await createHarness({
      settings,
      extensions: [
        compactHook(
          ({ preparation }) => ({
            compaction: {
              summary: "CUSTOM SUMMARY",
              firstKeptEntryId: preparation.firstKeptEntryId,
              tokensBefore: preparation.tokensBefore,
              details: { by: "extension" },
            },
          }),
          seen,
        ),
      ],
    });
    scriptReplies(h.server, [textReply("one"), textReply("two")]);
    await twoBigPrompts(h);
    const branchIds = h.store.getBranch().map((entry) => entry.id);
    const result = await h.session.compact("focus on the letters");

    expect(seen).toHaveLength(1);
    const event = seen[0] as SessionBeforeCompactEvent;
    expect(event.type).toBe("session_before_compact");
    expect(event.reason).toBe("manual");
    expect(event.willRetry).toBe(false);
    expect(event.customInstructions).toBe("focus on the letters");
    expect(event.signal).toBeInstanceOf(AbortSignal);
    expect(event.branchEntries.map((entry) => entry.id)).toEqual(branchIds);
    expect(branchIds).toContain(event.preparation.firstKeptEntryId);
    expect(event.preparation.messagesToSummarize.length).toBeGreaterThan(0);
    expect(event.preparation.tokensBefore).toBeGreaterThan(0);
    expect(event.preparation.settings).toMatchObject({ reserveTokens: 10_000, keepRecentTokens: 4000 });
    expect(event.preparation).toHaveProperty("fileOps");
    expect(event.preparation).toHaveProperty("isSplitTurn");

    expect(result).toMatchObject({
      summary: "CUSTOM SUMMARY",
      summarizer: "extension",
      details: { by: "extension" },
    });
    const entry = h.fileEntries().find((candidate) => candidate.type === "compaction");
    expect(entry).toMatchObject({
      summary: "CUSTOM SUMMARY",
      fromHook: true,
      firstKeptEntryId: event.preparation.firstKeptEntryId,
      tokensBefore: event.preparation.tokensBefore,
    });
    expect(h.summaryRequests()).toHaveLength(0);
    expect(h.events.find((candidate) => candidate.type === "session_compact")).toMatchObject({
      fromExtension: true,
      reason: "manual",
    });
  });

  it("{ cancel: true } cancels: compact() rejects, nothing is written, session_compact_failed is aborted", async () => {
    const h = await createHarness({ settings, extensions: [compactHook(() => ({ cancel: true }))] });
    scriptReplies(h.server, [textReply("one"), textReply("two")]);
    await twoBigPrompts(h);
    await expect(h.session.compact()).rejects.toMatchObject({ code: "COMPACTION_CANCELLED" });
    expect(h.fileEntries().some((entry) => entry.type === "compaction")).toBe(false);
    expect(h.events.find((event) => event.type === "session_compact_failed")).toEqual({
      type: "session_compact_failed",
      reason: "manual",
      aborted: true,
      willRetry: false,
      fromExtension: false,
    });
  });

  it("session_compact_failed.willRetry tells that an overflow recovery would have retried (seed 004)", async () => {
    const seen: SessionBeforeCompactEvent[] = [];
    const h = await createHarness({ settings, extensions: [compactHook(() => ({ cancel: true }), seen)] });
    scriptReplies(h.server, [textReply("hi"), overflowReply("native")]);
    await h.session.prompt("hello");
    const result = await h.session.prompt(`Summarize the log below. ${"l".repeat(60_000)}`);
    expect(result.retried).toBe(false);
    expect(h.agentRequests()).toHaveLength(2);
    expect(seen.map((event) => [event.reason, event.willRetry])).toEqual([["overflow", true]]);
    expect(h.events.find((event) => event.type === "session_compact_failed")).toMatchObject({
      reason: "overflow",
      aborted: true,
      willRetry: true,
    });
    // The omission of the failed attempt stays (pi's order): no compaction, no retry.
    expect(h.fileEntries().map((entry) => entry.type)).toContain("context_edit");
  });

  it("modelOverrides change the threshold after setModel", async () => {
    const seen: SessionBeforeCompactEvent[] = [];
    const h = await createHarness({
      settings: {
        compaction: {
          reserveTokens: 10_000,
          keepRecentTokens: 4000,
          modelOverrides: { "anthropic/claude-tight": { reserveTokens: 25_000 } },
        },
      },
      extensions: [compactHook(() => undefined, seen)],
    });
    scriptReplies(
      h.server,
      [
        textReply("one", { usage: { input: 15_000, output: 100 } }),
        textReply("two", { usage: { input: 15_500, output: 100 } }),
        textReply("three"),
      ],
      [textReply("SUMMARY")],
    );
    await h.session.prompt(`first ${"a".repeat(40_000)}`);
    await h.session.prompt(`second ${"b".repeat(20_000)}`);
    expect(seen).toHaveLength(0);
    expect(h.session.getCompactionSettings().reserveTokens).toBe(10_000);
    await h.session.setModel({ ...h.model, id: "claude-tight" });
    expect(h.session.getCompactionSettings().reserveTokens).toBe(25_000);
    await h.session.prompt("third");
    expect(seen.map((event) => event.reason)).toEqual(["threshold"]);
    expect(seen[0]?.preparation.settings.reserveTokens).toBe(25_000);
  });
});
