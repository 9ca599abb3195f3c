import fs from "node:fs";
import { serverErrorReply, textReply, toolCallReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import { RuntimeError } from "../../src/runtime-error";
import { bigReadTool, closeHarnesses, createHarness, scriptReplies, type WireApi } from "../helpers/harness";

afterEach(closeHarnesses);

const noFallback = { compaction: { reserveTokens: 10_000, keepRecentTokens: 4000, offlineFallback: false } };

describe.each<WireApi>(["anthropic", "openai"])("a failing summary (%s SDK)", (api) => {
  it("manual compaction: the file stays byte-identical, the failed event fires once, one attempt", async () => {
    const h = await createHarness({ api, settings: noFallback });
    scriptReplies(h.server, [textReply("one"), textReply("two")], [serverErrorReply(500)]);
    await h.session.prompt(`first ${"a".repeat(40_000)}`);
    await h.session.prompt(`second ${"b".repeat(40_000)}`);
    const before = fs.readFileSync(h.file);
    h.events.length = 0;

    const error = await h.session.compact().catch((caught: unknown) => caught);
    expect(RuntimeError.isInstance(error) && (error as RuntimeError).code).toBe("COMPACTION_FAILED");
    expect(fs.readFileSync(h.file).equals(before)).toBe(true);
    expect(h.summaryRequests()).toHaveLength(1);
    expect(h.eventTypes()).toEqual(["compaction_start", "compaction_end", "session_compact_failed"]);
    expect(h.events[2]).toMatchObject({
      type: "session_compact_failed",
      reason: "manual",
      aborted: false,
      willRetry: false,
      fromExtension: false,
    });
    expect((h.events[2] as { errorMessage?: string }).errorMessage).toMatch(/^Compaction failed: /);
  });

  it("threshold compaction: no entry is written, one attempt per prompt, the run goes on", async () => {
    const h = await createHarness({ api, settings: noFallback, tools: [bigReadTool(60_000)] });
    scriptReplies(
      h.server,
      [
        textReply("noted", { usage: { input: 15_100, output: 100 } }),
        toolCallReply("read", { path: "a.txt" }, { usage: { input: 15_300, output: 20 } }),
        toolCallReply("read", { path: "b.txt" }, { usage: { input: 30_500, output: 20 } }),
        textReply("finished", { usage: { input: 31_000, output: 20 } }),
      ],
      [serverErrorReply(500)],
    );
    await h.session.prompt(`remember ${"p".repeat(60_000)}`);
    const result = await h.session.prompt("read a.txt and b.txt");

    expect(result.error).toBeUndefined();
    expect(result.lastAssistant?.content).toEqual([{ type: "text", text: "finished" }]);
    expect(h.fileEntries().some((entry) => entry.type === "compaction")).toBe(false);
    expect(h.summaryRequests()).toHaveLength(1);
    expect(h.eventTypes((type) => type === "session_compact_failed")).toHaveLength(1);
    expect(h.eventTypes((type) => type === "compaction_start")).toHaveLength(1);
    expect(h.agentRequests()).toHaveLength(4);
  });

  it("falls back to the offline summarizer by default and says so", async () => {
    const h = await createHarness({
      api,
      settings: { compaction: { reserveTokens: 10_000, keepRecentTokens: 4000 } },
    });
    scriptReplies(h.server, [textReply("one"), textReply("two")], [serverErrorReply(500)]);
    await h.session.prompt(`first ${"a".repeat(40_000)}`);
    await h.session.prompt(`second ${"b".repeat(40_000)}`);
    const result = await h.session.compact();
    expect(result.summarizer).toBe("offline");
    expect(result.summary).toContain("## Goal");
    const fallback = h.events.find((event) => event.type === "compaction_fallback");
    expect(fallback).toMatchObject({ operation: "compaction", reason: "manual" });
    const compaction = h.fileEntries().at(-1);
    expect(compaction).toMatchObject({ type: "compaction", fromHook: false, summary: result.summary });
  });
});
