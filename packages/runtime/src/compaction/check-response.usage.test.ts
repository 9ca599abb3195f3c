/**
 * `checkResponse`: which numbers decide. Usage above the window is an overflow only while it still
 * describes the context (nothing edited since the response); the threshold check takes the
 * response's own usage, or an estimate with the session's token counter when there are edits, an
 * error or no usage. Same setup as check-response.test.ts (window 40000, threshold 30000, maxTokens
 * 1000, offline summaries); "overflow" vs "threshold" in `compaction_start` tells the paths apart.
 */
import type { AgentMessage } from "@arbor/agent-loop";
import type { TokenCounter } from "@arbor/compaction";
import { serverErrorReply, textReply, toolCallReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import { type CoreHarness, closeCoreHarnesses, createCoreHarness } from "../../test/helpers/core-harness";
import { checkResponse } from "./check-response";

afterEach(closeCoreHarnesses);

const after = { prePrompt: false };
const beforePrompt = { prePrompt: true };

/** `n` thousand tokens of text (chars / 4). */
function kiloTokens(n: number, letter = "x"): string {
  return letter.repeat(n * 4000);
}

function reasons(h: CoreHarness): string[] {
  return h.events.flatMap((event) => (event.type === "compaction_start" ? [event.reason] : []));
}

/** A response that read the whole window (stop, input above 40000). */
const overWindow = () => textReply("done", { usage: { input: 40_001, output: 10 } });

describe("checkResponse: usage above the window, and edits", () => {
  it("an entry after the response that is no edit (a session name) keeps its usage: an overflow", async () => {
    const h = await createCoreHarness();
    h.say(kiloTokens(10, "a"));
    h.persist(await h.respond(textReply("noted", { usage: { input: 10_010, output: 10 } })));
    h.say(kiloTokens(20, "b"));
    const answer = h.persist(await h.respond(overWindow()));
    h.store.appendSessionInfo("a long session");
    expect(await checkResponse(h.core, h.newRun(), answer, beforePrompt)).toEqual({ retry: false });
    expect(reasons(h)).toEqual(["overflow"]);
  });

  it("an edit written just before the response does not make its usage stale: an overflow", async () => {
    const h = await createCoreHarness();
    const first = h.say(kiloTokens(10, "a"));
    h.persist(await h.respond(textReply("noted", { usage: { input: 10_010, output: 10 } })));
    h.say(kiloTokens(20, "b"));
    h.store.appendContextEdit(h.idOf(first), { content: kiloTokens(9, "c") });
    const answer = h.persist(await h.respond(overWindow()));
    expect(await checkResponse(h.core, h.newRun(), answer, after)).toEqual({ retry: false });
    expect(reasons(h)).toEqual(["overflow"]);
    expect(h.branchShape().at(-1)).toBe("compaction");
  });

  it("an edit after a response at the root of the session makes its usage stale: the threshold decides", async () => {
    const h = await createCoreHarness();
    const answer = h.persist(await h.respond(overWindow()));
    h.say(kiloTokens(20, "a"));
    h.say(kiloTokens(20, "b"));
    h.store.appendContextEdit(h.idOf(answer), { content: "(shortened)" });
    expect(await checkResponse(h.core, h.newRun(), answer, beforePrompt)).toEqual({ retry: false });
    expect(reasons(h)).toEqual(["threshold"]);
  });

  it("a response that is not in the session is taken as it is: edits in the session do not make its usage stale", async () => {
    const h = await createCoreHarness();
    const first = h.say(kiloTokens(10, "a"));
    h.persist(await h.respond(textReply("noted", { usage: { input: 10_010, output: 10 } })));
    h.say(kiloTokens(20, "b"));
    h.store.appendContextEdit(h.idOf(first), { content: "short" });
    const answer = await h.respond(overWindow());
    expect(await checkResponse(h.core, h.newRun(), answer, after)).toEqual({ retry: false });
    expect(reasons(h)).toEqual(["overflow"]);
  });

  it("a response at the root, stamped after a later compaction, is still older than it (its place decides)", async () => {
    const h = await createCoreHarness();
    const failed = h.persist({ ...(await h.respond(overWindow())), timestamp: Date.now() + 3_600_000 });
    h.say(kiloTokens(20, "a"));
    h.store.appendCompaction({ summary: "done", firstKeptEntryId: h.idOf(failed), tokensBefore: 40_000 });
    h.say(kiloTokens(20, "b"));
    h.say(kiloTokens(20, "c"));
    expect(await checkResponse(h.core, h.newRun(), failed, after)).toEqual({ retry: false });
    expect(h.events).toEqual([]);
  });
});

describe("checkResponse: the threshold's numbers", () => {
  it("takes the response's own usage, not what was added after it (a tool result before a new prompt)", async () => {
    const h = await createCoreHarness();
    h.say(kiloTokens(10, "a"));
    h.persist(await h.respond(textReply("noted", { usage: { input: 10_010, output: 10 } })));
    h.say(kiloTokens(10, "b"));
    const call = h.persist(
      await h.respond(
        toolCallReply("read", { path: "a.ts" }, { id: "call_a", usage: { input: 29_000, output: 10 } }),
      ),
    );
    h.persist({
      role: "toolResult",
      toolCallId: "call_a",
      toolName: "read",
      content: [{ type: "text", text: kiloTokens(8, "r") }],
      isError: false,
      timestamp: Date.now(),
    });
    expect(await checkResponse(h.core, h.newRun(), call, beforePrompt)).toEqual({ retry: false });
    expect(h.events).toEqual([]);
  });

  it("a failed request estimates from the last good usage, even when it reports some usage of its own", async () => {
    const h = await createCoreHarness();
    h.say(kiloTokens(10, "a"));
    h.persist(await h.respond(textReply("noted", { usage: { input: 10_010, output: 10 } })));
    h.say(kiloTokens(25, "b"));
    const failed = h.persist(
      await h.respond(textReply("partial answer", { usage: { input: 120, output: 4 }, errorAfterEvents: 3 })),
    );
    expect(failed.stopReason).toBe("error");
    expect(failed.usage.input).toBeGreaterThan(0);
    expect(await checkResponse(h.core, h.newRun(), failed, after)).toEqual({ retry: false });
    expect(reasons(h)).toEqual(["threshold"]);
  });

  it("an estimate based on usage from before the latest compaction is not trusted, with plenty to compact", async () => {
    const h = await createCoreHarness();
    h.say(kiloTokens(2, "a"));
    const old = h.persist(await h.respond(textReply("noted", { usage: { input: 35_000, output: 10 } })));
    h.store.appendCompaction({ summary: "done", firstKeptEntryId: h.idOf(old), tokensBefore: 35_000 });
    h.say(kiloTokens(6, "b"));
    h.say(kiloTokens(6, "c"));
    const failed = h.persist(await h.respond(serverErrorReply(500)));
    expect(await checkResponse(h.core, h.newRun(), failed, after)).toEqual({ retry: false });
    expect(h.events).toEqual([]);
    expect(h.branchShape().at(-1)).toBe("assistant");
  });

  describe("estimates count with the session's token counter", () => {
    /** About four times the default count: a message's JSON length. */
    const heavy: TokenCounter = {
      name: "json-length",
      countMessage: (message: AgentMessage) => JSON.stringify(message).length,
    };

    it("with edits in the context", async () => {
      for (const [tokenCounter, expected] of [
        [heavy, ["threshold"]],
        [undefined, []],
      ] as const) {
        const h = await createCoreHarness({ compaction: tokenCounter ? { tokenCounter } : {} });
        const first = h.say(kiloTokens(1, "a"));
        const answer = h.persist(await h.respond(textReply("ok", { usage: { input: 100, output: 0 } })));
        h.say(kiloTokens(8, "b"));
        h.store.appendContextEdit(h.idOf(first), { content: "edited" });
        await checkResponse(h.core, h.newRun(), answer, beforePrompt);
        expect(reasons(h)).toEqual(expected);
      }
    });

    it("after a failed request", async () => {
      for (const [tokenCounter, expected] of [
        [heavy, ["threshold"]],
        [undefined, []],
      ] as const) {
        const h = await createCoreHarness({ compaction: tokenCounter ? { tokenCounter } : {} });
        h.say(kiloTokens(1, "a"));
        h.persist(await h.respond(textReply("noted", { usage: { input: 1000, output: 10 } })));
        h.say(kiloTokens(8, "b"));
        const failed = h.persist(await h.respond(serverErrorReply(500)));
        await checkResponse(h.core, h.newRun(), failed, after);
        expect(reasons(h)).toEqual(expected);
      }
    });
  });
});
