/**
 * `checkResponse` on less common shapes: a response that is not in the session, a context without
 * any usage, a copy of the failed response, a response at the root of the session. Same setup as
 * check-response.test.ts (threshold 30000 tokens, maxTokens 1000, offline summaries).
 */
import type { AssistantMessage } from "@arbor/providers";
import { overflowReply, textReply, toolCallReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import { closeCoreHarnesses, createCoreHarness } from "../../test/helpers/core-harness";
import { checkResponse } from "./check-response";

afterEach(closeCoreHarnesses);

const after = { prePrompt: false };

describe("checkResponse: edge cases", () => {
  it("a cut-short response that is not in the session is still recovered (nothing to omit)", async () => {
    const h = await createCoreHarness();
    h.say("a".repeat(40_000));
    h.persist(await h.respond(textReply("noted")));
    h.say("b".repeat(80_000));
    const cut = await h.respond(textReply("cut", { stopReason: "length", usage: { output: 10 } }));
    expect(await checkResponse(h.core, h.newRun(), cut, after)).toEqual({ retry: true });
    expect(h.branchShape()).toEqual(["user", "assistant", "user", "compaction"]);
  });

  it("a context without any usage is estimated from its text", async () => {
    const h = await createCoreHarness();
    h.say("a".repeat(64_000));
    h.persist(await h.respond(textReply("noted", { usage: { input: 0, output: 0 } })));
    h.say("b".repeat(64_000));
    const answer = h.persist(await h.respond(textReply("ok", { usage: { input: 0, output: 0 } })));
    await checkResponse(h.core, h.newRun(), answer, after);
    expect(h.events.filter((event) => event.type === "compaction_start")).toEqual([
      { type: "compaction_start", reason: "threshold", willRetry: false },
    ]);
  });

  it("a copy of the failed response (same entry) has its tool results omitted with it", async () => {
    const h = await createCoreHarness();
    h.say("a".repeat(40_000));
    h.persist(await h.respond(textReply("noted")));
    h.say("b".repeat(80_000));
    const cut = h.persist(
      await h.respond(
        toolCallReply(
          "read",
          { path: "a.ts" },
          { id: "call_a", stopReason: "length", usage: { output: 50 } },
        ),
      ),
    );
    const result = h.persist({
      role: "toolResult",
      toolCallId: "call_a",
      toolName: "read",
      content: [{ type: "text", text: "cut short" }],
      isError: true,
      timestamp: Date.now(),
    });
    const copy: AssistantMessage = { ...cut };
    h.core.entryIds.set(copy, h.idOf(cut));
    expect(await checkResponse(h.core, h.newRun(), copy, after)).toEqual({ retry: true });
    const edits = h.store.getBranch().filter((entry) => entry.type === "context_edit");
    expect(edits.map((edit) => edit.targetId)).toEqual([h.idOf(cut), h.idOf(result)]);
  });

  it("an overflow at the root of the session, already omitted, is not recovered again", async () => {
    const h = await createCoreHarness();
    const failed = h.persist(await h.respond(overflowReply()));
    h.store.appendContextEdit(h.idOf(failed), null);
    expect(await checkResponse(h.core, h.newRun(), failed, after)).toEqual({ retry: false });
    expect(h.branchShape()).toEqual(["assistant", "context_edit"]);
    expect(h.events).toEqual([]);
  });

  it("a response in the session is dated by its place on the branch, not by its timestamp", async () => {
    const older = await createCoreHarness();
    older.say("a".repeat(40_000));
    older.persist(await older.respond(textReply("noted")));
    older.say("b".repeat(80_000));
    const failed = await older.respond(overflowReply());
    // Stamped an hour ahead, but written before the compaction: older than it.
    const stamped = older.persist({ ...failed, timestamp: Date.now() + 3_600_000 });
    older.store.appendCompaction({
      summary: "done",
      firstKeptEntryId: older.idOf(stamped),
      tokensBefore: 30_000,
    });
    older.say("next");
    expect(await checkResponse(older.core, older.newRun(), stamped, after)).toEqual({ retry: false });
    expect(older.events).toEqual([]);

    const newer = await createCoreHarness();
    newer.say("a".repeat(40_000));
    const kept = newer.persist(await newer.respond(textReply("noted")));
    newer.store.appendCompaction({
      summary: "done",
      firstKeptEntryId: newer.idOf(kept),
      tokensBefore: 10_000,
    });
    newer.say("b".repeat(80_000));
    // Stamped in 1970, but written after the compaction: newer than it.
    const late = newer.persist({ ...(await newer.respond(overflowReply())), timestamp: 1 });
    expect(await checkResponse(newer.core, newer.newRun(), late, after)).toEqual({ retry: true });
  });
});
