/**
 * The context policies through `createAgentSession` (selected with `settings.contextPolicy`), on a
 * small session: a real JSONL store, requests through the Anthropic SDK to the wire-level server.
 */
import { textReply, toolCallReply } from "@arbor/providers/testing";
import type { ContextEditEntry } from "@arbor/session-store";
import { afterEach, describe, expect, it } from "vitest";
import { bigReadTool, closeHarnesses, conversationText, createHarness } from "../../test/helpers/harness";
import { worthRewriting } from "./context-policy-extension";

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

async function runPolicy(contextPolicy: unknown) {
  const h = await createHarness({
    contextWindow: 40_000,
    tools: [bigReadTool(8000)],
    settings: { contextPolicy: contextPolicy as never, compaction: { reserveTokens: 10_000 } },
    compaction: { provider: null },
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
