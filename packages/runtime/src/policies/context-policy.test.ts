/**
 * The context policies through `createAgentSession` (selected with `settings.contextPolicy`), on a
 * small session: a real JSONL store, requests through the Anthropic SDK to the wire-level server.
 */
import { textReply, toolCallReply } from "@arbor/providers/testing";
import type { CompactionEntry, ContextEditEntry } from "@arbor/session-store";
import { afterEach, describe, expect, it } from "vitest";
import {
  bigReadTool,
  closeHarnesses,
  conversationText,
  createHarness,
  scriptReplies,
} from "../../test/helpers/harness";
import { worthRewriting } from "./worth-rewriting";

afterEach(closeHarnesses);

/** Eight reads of 8000 characters (about 2000 tokens each), then a final answer. */
function script(server: Awaited<ReturnType<typeof createHarness>>["server"]) {
  for (let index = 1; index <= 8; index++) {
    server.enqueue(
      toolCallReply(
        "read",
        { path: `src/file-${index}.ts` },
        { id: `call_${index}`, usage: { input: 1000 + index * 2000, output: 20 } },
      ),
    );
  }
  server.enqueue(textReply("done", { usage: { input: 10_000, output: 5 } }));
}

async function runPolicy(
  contextPolicy: unknown,
  summaries: "offline" | "model" = "offline",
  compaction: { reserveTokens: number; keepRecentTokens?: number } = { reserveTokens: 10_000 },
) {
  const h = await createHarness({
    contextWindow: 40_000,
    tools: [bigReadTool(8000)],
    settings: { contextPolicy: contextPolicy as never, compaction },
    ...(summaries === "offline" ? { compaction: { provider: null } } : {}),
  });
  script(h.server);
  await h.session.prompt("read the eight files");
  const entries = h.fileEntries();
  const edits = entries.filter((entry): entry is ContextEditEntry => entry.type === "context_edit");
  // Edits written by one turn_end are consecutive entries: one batch.
  const batches = entries.filter(
    (entry, index) => entry.type === "context_edit" && entries[index - 1]?.type !== "context_edit",
  ).length;
  return { h, edits, batches };
}

describe("context policies through createAgentSession", () => {
  it("pi: writes no context edit (threshold summaries only)", async () => {
    const { h, edits } = await runPolicy("pi");
    expect(edits).toHaveLength(0);
    expect(conversationText(h.server.requests.at(-1))).toContain("x".repeat(7000));
  });

  it("mask: hides old large outputs once the context passes the trigger; the newest stay; the file keeps them", async () => {
    const { h, edits } = await runPolicy({ name: "mask", triggerFraction: 0.2, protectRecentTokens: 3000 });
    expect(edits.length).toBeGreaterThanOrEqual(2);
    for (const edit of edits)
      expect(JSON.stringify(edit.replacement)).toContain("hidden by the context policy");
    const last = conversationText(h.server.requests.at(-1));
    expect(last).toContain("hidden by the context policy");
    // The newest read is protected and sent in full.
    expect(last).toContain(`contents of src/file-8.ts: ${"x".repeat(1000)}`);
    expect(last).not.toContain(`contents of src/file-1.ts: ${"x".repeat(1000)}`);
    // The output is still in the file: an edit, not a deletion.
    expect(JSON.stringify(h.fileEntries())).toContain("contents of src/file-1.ts: xxxx");
  });

  it("cache-aware: masks in fewer batches than mask, and not at all when the saving does not pay", async () => {
    const mask = await runPolicy({ name: "mask", triggerFraction: 0.2, protectRecentTokens: 3000 });
    const { h, edits, batches } = await runPolicy({
      name: "cache-aware",
      triggerFraction: 0.5,
      protectRecentTokens: 3000,
    });
    expect(edits.length).toBeGreaterThan(0);
    expect(batches).toBeLessThan(mask.batches);
    expect(conversationText(h.server.requests.at(-1))).toContain("hidden by the context policy");
    const { edits: none } = await runPolicy({
      name: "cache-aware",
      triggerFraction: 0.2,
      protectRecentTokens: 3000,
      horizonRequests: 0,
    });
    expect(none).toHaveLength(0);
  });

  it("cache-aware: sends a fourth cache breakpoint (the anchor) on the wire, kept in place across a mask batch; pi sends three", async () => {
    const markers = (request: { body: unknown }) =>
      JSON.stringify(request.body).match(/cache_control/g)?.length ?? 0;
    const pi = await runPolicy("pi");
    // The harness sends no system prompt: pi marks the last tool and the last message.
    expect(Math.max(...pi.h.server.requests.map(markers))).toBe(2);
    const { h } = await runPolicy({ name: "cache-aware", triggerFraction: 0.2, protectRecentTokens: 3000 });
    const requests = h.server.requests;
    expect(requests.slice(1).every((request) => markers(request) === 3)).toBe(true);
    /** The text or tool_use_id of the block carrying the anchor (the first marker in the messages). */
    const anchorOf = (request: { body: unknown }) => {
      const messages = (request.body as { messages: Array<{ content: Array<Record<string, unknown>> }> })
        .messages;
      const marked = messages.flatMap((message) => message.content).filter((block) => block.cache_control);
      return JSON.stringify(marked[0]?.tool_use_id ?? marked[0]?.text);
    };
    const firstMasked = requests.findIndex((request) =>
      conversationText(request).includes("hidden by the context policy"),
    );
    expect(firstMasked).toBeGreaterThan(1);
    // The request right after the batch keeps the anchor of the one before (its cache entry is intact) ...
    expect(anchorOf(requests[firstMasked] as never)).toBe(anchorOf(requests[firstMasked - 1] as never));
    // ... and the next one moves it past the masked outputs.
    if (requests[firstMasked + 1] !== undefined)
      expect(anchorOf(requests[firstMasked + 1] as never)).not.toBe(anchorOf(requests[firstMasked] as never));
  });

  it("cache-aware: summarizes on its own below the threshold (a compaction draft from turn_end), with the session's summarizer", async () => {
    // Masking is kept out of the way (no output is large enough) so that the summary is what acts.
    const policy = {
      name: "cache-aware",
      triggerFraction: 0.1,
      summaryFraction: 0.3,
      keepRecentTokens: 3000,
      minToolResultTokens: 100_000,
    };
    const { h } = await runPolicy(policy);
    const compactions = h
      .fileEntries()
      .filter((entry): entry is CompactionEntry => entry.type === "compaction");
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions[0]?.fromHook).toBe(true);
    expect(compactions[0]?.summary).toContain("src/file-1.ts");
    // pi on the same session never reaches its threshold: no summary at all.
    const pi = await runPolicy("pi");
    expect(pi.h.fileEntries().some((entry) => entry.type === "compaction")).toBe(false);
    // With a summary model configured, the policy's summary is a request through the SDK.
    const withModel = await createHarness({
      contextWindow: 40_000,
      tools: [bigReadTool(8000)],
      settings: { contextPolicy: policy as never, compaction: { reserveTokens: 10_000 } },
    });
    const agent = [];
    for (let index = 1; index <= 8; index++)
      agent.push(
        toolCallReply(
          "read",
          { path: `src/file-${index}.ts` },
          { id: `call_${index}`, usage: { input: 1000 + index * 2000, output: 20 } },
        ),
      );
    agent.push(textReply("done", { usage: { input: 10_000, output: 5 } }));
    scriptReplies(
      withModel.server,
      agent,
      Array.from({ length: 8 }, () => textReply("## Goal\nmodel summary")),
    );
    await withModel.session.prompt("read the eight files");
    expect(withModel.summaryRequests().length).toBeGreaterThan(0);
    const written = withModel
      .fileEntries()
      .find((entry): entry is CompactionEntry => entry.type === "compaction");
    expect(written?.summary).toContain("model summary");
    expect(written?.fromHook).toBe(true);
  });

  it("cache-aware with the session's model: a summary is the last request's conversation plus one instruction (cache reads reported); pi's stays fresh", async () => {
    const policy = {
      name: "cache-aware",
      triggerFraction: 0.1,
      summaryFraction: 0.3,
      keepRecentTokens: 3000,
      minToolResultTokens: 100_000,
    };
    const run = async (contextPolicy: unknown) => {
      const h = await createHarness({
        contextWindow: 40_000,
        tools: [bigReadTool(8000)],
        settings: { contextPolicy: contextPolicy as never, compaction: { reserveTokens: 10_000 } },
      });
      const agent = [];
      for (let index = 1; index <= 8; index++)
        agent.push(
          toolCallReply(
            "read",
            { path: `src/file-${index}.ts` },
            { id: `call_${index}`, usage: { input: 1000 + index * 2000, output: 20 } },
          ),
        );
      agent.push(textReply("done", { usage: { input: 10_000, output: 5 } }));
      const summaries = Array.from({ length: 8 }, () =>
        textReply("## Goal\nmodel summary", {
          usage: { input: 30, cacheRead: 9000, cacheWrite: 2100, output: 50 },
        }),
      );
      scriptReplies(h.server, agent, summaries);
      await h.session.prompt("read the eight files");
      return h;
    };
    const h = await run(policy);
    const requests = h.server.requests;
    const at = requests.findIndex((request) => h.summaryRequests().includes(request));
    expect(at).toBeGreaterThan(0);
    type Body = { system?: unknown; tools?: unknown; messages: unknown[] };
    const before = requests[at - 1]?.body as Body;
    const summary = requests[at]?.body as Body;
    const unmarked = (value: unknown) =>
      JSON.parse(JSON.stringify(value).replace(/,"cache_control":\{[^}]*\}/g, ""));
    expect(summary.system).toEqual(before.system);
    expect(summary.tools).toEqual(before.tools);
    // The last request's messages, then its answer, tool result and the instruction.
    expect(unmarked(summary.messages.slice(0, before.messages.length))).toEqual(unmarked(before.messages));
    expect(summary.messages.length).toBeGreaterThan(before.messages.length);
    // The breakpoint the last request wrote (its last block) is where the summary reads it.
    const lastBlock = (messages: unknown[], index: number) =>
      JSON.stringify((messages[index] as { content: unknown[] }).content.at(-1));
    expect(lastBlock(summary.messages, before.messages.length - 1)).toBe(
      lastBlock(before.messages, before.messages.length - 1),
    );
    expect(lastBlock(before.messages, before.messages.length - 1)).toContain("cache_control");
    expect(JSON.stringify(summary.messages.at(-1))).toContain("checkpoint");
    const compaction = h.fileEntries().find((entry): entry is CompactionEntry => entry.type === "compaction");
    expect(compaction?.summary).toContain("model summary");
    expect(compaction?.usage).toMatchObject({ input: 30, cacheRead: 9000, cacheWrite: 2100, output: 50 });
    // Turned off, the same policy sends the fresh summary request (the summarizer's own system prompt).
    const fresh = await run({ ...policy, shareSummaryCache: false });
    const first = fresh.summaryRequests()[0]?.body as Body | undefined;
    expect(first).toBeDefined();
    expect(JSON.stringify(first?.system)).toContain("checkpoint");
    expect(first?.tools).toBeUndefined();
  });

  it("cache-aware with keepRecentTokens shapes the session's own compactions through session_before_compact", async () => {
    const kept = async (contextPolicy: unknown) => {
      const { h } = await runPolicy(contextPolicy, "offline", {
        reserveTokens: 10_000,
        keepRecentTokens: 8000,
      });
      await h.session.compact();
      const entries = h.fileEntries();
      const compaction = entries.findLast((entry): entry is CompactionEntry => entry.type === "compaction");
      return entries.findIndex((entry) => entry.id === compaction?.firstKeptEntryId);
    };
    const base = { name: "cache-aware", summaryFraction: 1, triggerFraction: 1 };
    const keepDefault = await kept(base);
    const keepLess = await kept({ ...base, keepRecentTokens: 2000 });
    expect(keepDefault).toBeGreaterThan(0);
    expect(keepLess).toBeGreaterThan(keepDefault);
  });

  it("an invalid policy in a settings file is rejected by the schema", async () => {
    const { settingsFileSchema } = await import("../settings/settings-schema");
    expect(settingsFileSchema().safeParse({ contextPolicy: "bogus" }).success).toBe(false);
    expect(
      settingsFileSchema().safeParse({ contextPolicy: { name: "mask", triggerFraction: 2 } }).success,
    ).toBe(false);
    expect(
      settingsFileSchema().safeParse({ contextPolicy: { name: "cache-aware", horizonRequests: 5 } }).success,
    ).toBe(true);
  });
});

describe("worthRewriting (the cache-aware rule)", () => {
  const edit = (savedTokens: number) => ({ targetId: "x", replacement: { content: "" }, savedTokens });
  it("masks when the saving read over the horizon outweighs the write premium on what remains", () => {
    // 40k saved × 20 requests × 0.1 = 80k > 60k remaining × 1.15 = 69k.
    expect(worthRewriting(100_000, [edit(25_000), edit(15_000)], 20)).toBe(true);
    // 30k × 20 × 0.1 = 60k < 70k × 1.15 = 80.5k.
    expect(worthRewriting(100_000, [edit(30_000)], 20)).toBe(false);
    // A longer horizon makes the same saving worth it: 30k × 30 × 0.1 = 90k > 80.5k.
    expect(worthRewriting(100_000, [edit(30_000)], 30)).toBe(true);
  });
});
