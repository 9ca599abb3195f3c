/**
 * `checkResponse`, branch by branch: what the session does after a response (pi's `_checkCompaction`).
 * Real responses (the Anthropic SDK against the local wire server), a real JSONL store, offline
 * summaries. Window 40000, reserve 10000: the threshold is 30000 tokens; maxTokens 1000.
 */
import type { AssistantMessage } from "@arbor/providers";
import { overflowReply, serverErrorReply, textReply, toolCallReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  type CoreHarness,
  closeCoreHarnesses,
  createCoreHarness,
  failingCompactor,
} from "../../test/helpers/core-harness";
import type { AgentSessionEvent } from "../events/session-events";
import { RuntimeError } from "../runtime-error";
import { checkResponse } from "./check-response";

afterEach(closeCoreHarnesses);

/** `n` thousand tokens of text (chars / 4). */
function kiloTokens(n: number, letter = "x"): string {
  return letter.repeat(n * 4000);
}

const after = { prePrompt: false };
const beforePrompt = { prePrompt: true };

/** u1 (10k tokens), a1, u2 (`second` k tokens), then the response to u2 (persisted). */
async function conversation(h: CoreHarness, last: Parameters<CoreHarness["respond"]>[0], second = 20) {
  h.say(kiloTokens(10, "a"));
  h.persist(await h.respond(textReply("noted", { usage: { input: 10_010, output: 10 } })));
  h.say(kiloTokens(second, "b"));
  return h.persist(await h.respond(last));
}

function compactionEvents(h: CoreHarness): AgentSessionEvent[] {
  return h.events.filter((event) => event.type.startsWith("compaction") || event.type.startsWith("session_"));
}

function started(h: CoreHarness) {
  return h.events.filter((event) => event.type === "compaction_start");
}

describe("checkResponse: overflow errors", () => {
  it("omits an overflowing response, compacts (overflow, will retry) and asks for one retry", async () => {
    const h = await createCoreHarness();
    const failed = await conversation(h, overflowReply());
    expect(failed.stopReason).toBe("error");
    const run = h.newRun();

    expect(await checkResponse(h.core, run, failed, after)).toEqual({ retry: true });
    expect(h.branchShape()).toEqual(["user", "assistant", "user", "assistant", "context_edit", "compaction"]);
    const [edit] = h.entriesAfter(h.idOf(failed));
    expect(edit).toMatchObject({ type: "context_edit", targetId: h.idOf(failed), replacement: null });
    expect(started(h)).toEqual([{ type: "compaction_start", reason: "overflow", willRetry: true }]);
    expect(h.eventTypes()).not.toContain("session_error");
    expect(run.error).toBeUndefined();
    expect(h.core.overflowRecoveryAttempted).toBe(true);
  });

  it("before a new prompt, recovers the same way but asks for no retry (the prompt goes out anyway)", async () => {
    const h = await createCoreHarness();
    const failed = await conversation(h, overflowReply());
    expect(await checkResponse(h.core, h.newRun(), failed, beforePrompt)).toEqual({ retry: false });
    expect(h.branchShape()).toEqual(["user", "assistant", "user", "assistant", "context_edit", "compaction"]);
  });

  it("a server error (500) is not an overflow: no omission, no compaction, no retry", async () => {
    const h = await createCoreHarness();
    const failed = await conversation(h, serverErrorReply(500), 10);
    expect(failed.stopReason).toBe("error");
    expect(await checkResponse(h.core, h.newRun(), failed, after)).toEqual({ retry: false });
    expect(h.branchShape()).toEqual(["user", "assistant", "user", "assistant"]);
    expect(h.events).toEqual([]);
    expect(h.core.overflowRecoveryAttempted).toBe(false);
  });

  it.each([
    ["another model id", { id: "claude-bigger" }],
    ["another provider", { provider: "anthropic-proxy" }],
  ])("an overflow from the model used before a switch to %s is not recovered", async (_name, change) => {
    const h = await createCoreHarness();
    const failed = await conversation(h, overflowReply(), 10);
    h.core.model = { ...h.model, ...change };
    expect(await checkResponse(h.core, h.newRun(), failed, after)).toEqual({ retry: false });
    expect(h.branchShape()).toEqual(["user", "assistant", "user", "assistant"]);
    expect(h.events).toEqual([]);
  });

  it("an overflow already omitted by a later null edit is not recovered again", async () => {
    const h = await createCoreHarness();
    const failed = await conversation(h, overflowReply(), 10);
    h.store.appendContextEdit(h.idOf(failed), null);
    expect(await checkResponse(h.core, h.newRun(), failed, after)).toEqual({ retry: false });
    expect(h.branchShape()).toEqual(["user", "assistant", "user", "assistant", "context_edit"]);
    expect(h.events).toEqual([]);
  });

  it("an overflow whose latest own edit replaces it (or whose edits target other entries) is still recovered", async () => {
    const replaced = await createCoreHarness();
    const first = await conversation(replaced, overflowReply());
    replaced.store.appendContextEdit(replaced.idOf(first), null);
    replaced.store.appendContextEdit(replaced.idOf(first), { content: "(failed)" });
    expect(await checkResponse(replaced.core, replaced.newRun(), first, after)).toEqual({ retry: true });
    expect(replaced.branchShape().slice(4)).toEqual([
      "context_edit",
      "context_edit",
      "context_edit",
      "compaction",
    ]);

    const other = await createCoreHarness();
    const second = await conversation(other, overflowReply());
    const firstUser = other.store.getBranch()[0];
    other.store.appendContextEdit(firstUser?.id ?? "", null);
    expect(await checkResponse(other.core, other.newRun(), second, after)).toEqual({ retry: true });
  });

  it("an overflow older than the latest compaction is ignored", async () => {
    const h = await createCoreHarness();
    const failed = await conversation(h, overflowReply());
    h.store.appendCompaction({ summary: "done", firstKeptEntryId: h.idOf(failed), tokensBefore: 30_000 });
    h.say("next question");
    expect(await checkResponse(h.core, h.newRun(), failed, after)).toEqual({ retry: false });
    expect(h.branchShape()).toEqual(["user", "assistant", "user", "assistant", "compaction", "user"]);
    expect(h.events).toEqual([]);
  });

  it("a response that is not in the session is dated by its timestamp (same millisecond as the compaction: older)", async () => {
    const h = await createCoreHarness();
    h.say(kiloTokens(10, "a"));
    h.persist(await h.respond(textReply("noted")));
    const compaction = h.store.appendCompaction({
      summary: "done",
      firstKeptEntryId: h.store.getBranch()[0]?.id ?? "",
      tokensBefore: 10_000,
    });
    h.say(kiloTokens(20, "b"));
    const failed = await h.respond(overflowReply());
    const at = Date.parse(compaction.timestamp);

    expect(await checkResponse(h.core, h.newRun(), { ...failed, timestamp: at }, after)).toEqual({
      retry: false,
    });
    expect(h.events).toEqual([]);
    expect(await checkResponse(h.core, h.newRun(), { ...failed, timestamp: at + 1 }, after)).toEqual({
      retry: true,
    });
    expect(started(h)).toEqual([{ type: "compaction_start", reason: "overflow", willRetry: true }]);
  });
});

describe("checkResponse: silent overflow (usage above the window)", () => {
  it("a successful response whose usage exceeds the window compacts without omission or retry", async () => {
    const h = await createCoreHarness();
    const answer = await conversation(h, textReply("done", { usage: { input: 40_001, output: 10 } }));
    expect(await checkResponse(h.core, h.newRun(), answer, after)).toEqual({ retry: false });
    expect(h.branchShape()).toEqual(["user", "assistant", "user", "assistant", "compaction"]);
    expect(started(h)).toEqual([{ type: "compaction_start", reason: "overflow", willRetry: false }]);
  });

  it("usage that no longer matches the projection (an edit after the response) is not an overflow", async () => {
    const h = await createCoreHarness();
    const answer = await conversation(h, textReply("done", { usage: { input: 40_001, output: 10 } }), 1);
    h.store.appendContextEdit(h.store.getBranch()[0]?.id ?? "", { content: "short now" });
    expect(await checkResponse(h.core, h.newRun(), answer, after)).toEqual({ retry: false });
    expect(h.branchShape()).toEqual(["user", "assistant", "user", "assistant", "context_edit"]);
    expect(h.events).toEqual([]);
  });

  it("a length stop with no output and a full window is an overflow: omitted, compacted, retried", async () => {
    const h = await createCoreHarness();
    const cut = await conversation(
      h,
      textReply("", { stopReason: "length", usage: { input: 39_700, output: 0 } }),
    );
    expect(await checkResponse(h.core, h.newRun(), cut, after)).toEqual({ retry: true });
    expect(h.branchShape().slice(4)).toEqual(["context_edit", "compaction"]);
  });

  it("a tool-use response above the window is no overflow: the threshold check compacts", async () => {
    const h = await createCoreHarness();
    const call = await conversation(
      h,
      toolCallReply("read", { path: "a.ts" }, { usage: { input: 40_001, output: 10 } }),
    );
    expect(call.stopReason).toBe("toolUse");
    expect(await checkResponse(h.core, h.newRun(), call, after)).toEqual({ retry: false });
    expect(started(h)).toEqual([{ type: "compaction_start", reason: "threshold", willRetry: false }]);
    expect(h.branchShape()).not.toContain("context_edit");
  });
});

describe("checkResponse: length stops", () => {
  it("a length stop below the model's maxTokens is omitted, compacted and retried", async () => {
    const h = await createCoreHarness({ maxTokens: 1000 });
    const cut = await conversation(
      h,
      textReply("half an ans", { stopReason: "length", usage: { output: 999 } }),
    );
    expect(await checkResponse(h.core, h.newRun(), cut, after)).toEqual({ retry: true });
    expect(h.branchShape().slice(4)).toEqual(["context_edit", "compaction"]);
    expect(started(h)).toEqual([{ type: "compaction_start", reason: "overflow", willRetry: true }]);
  });

  it("a length stop that used the whole output budget is left alone: no omission, no compaction", async () => {
    const h = await createCoreHarness({ maxTokens: 1000 });
    const cut = await conversation(
      h,
      textReply("a long answ", { stopReason: "length", usage: { output: 1000 } }),
    );
    expect(await checkResponse(h.core, h.newRun(), cut, after)).toEqual({ retry: false });
    expect(h.branchShape()).toEqual(["user", "assistant", "user", "assistant"]);
    expect(h.events).toEqual([]);
  });

  it("a length stop of a model without maxTokens, or of another model, is left alone", async () => {
    const unknown = await createCoreHarness({ maxTokens: 0 });
    const first = await conversation(
      unknown,
      textReply("cut", { stopReason: "length", usage: { output: 10 } }),
    );
    expect(await checkResponse(unknown.core, unknown.newRun(), first, after)).toEqual({ retry: false });
    expect(unknown.branchShape()).not.toContain("context_edit");

    const switched = await createCoreHarness();
    const second = await conversation(
      switched,
      textReply("cut", { stopReason: "length", usage: { output: 10 } }),
    );
    switched.core.model = { ...switched.model, id: "claude-other" };
    expect(await checkResponse(switched.core, switched.newRun(), second, after)).toEqual({ retry: false });
    expect(switched.branchShape()).not.toContain("context_edit");
  });

  it("a length stop that is no longer projected (already omitted) is left alone", async () => {
    const h = await createCoreHarness();
    const cut = await conversation(h, textReply("cut", { stopReason: "length", usage: { output: 10 } }), 10);
    h.store.appendContextEdit(h.idOf(cut), null);
    expect(await checkResponse(h.core, h.newRun(), cut, after)).toEqual({ retry: false });
    expect(h.branchShape().filter((type) => type === "context_edit")).toHaveLength(1);
    expect(h.events).toEqual([]);
  });

  it("a length stop with tool calls is omitted with its own tool results, up to the next response", async () => {
    const h = await createCoreHarness();
    h.say(kiloTokens(10, "a"));
    h.persist(await h.respond(textReply("noted")));
    h.say(kiloTokens(20, "b"));
    const cut = h.persist(
      await h.respond(
        toolCallReply(
          "read",
          { path: "a.ts" },
          { id: "call_a", stopReason: "length", usage: { output: 50 } },
        ),
      ),
    );
    const own = h.persist({
      role: "toolResult",
      toolCallId: "call_a",
      toolName: "read",
      content: [{ type: "text", text: "cut short before the call completed" }],
      isError: true,
      timestamp: Date.now(),
    });
    const foreign = h.persist({
      role: "toolResult",
      toolCallId: "call_other",
      toolName: "read",
      content: [{ type: "text", text: "an unrelated result" }],
      isError: false,
      timestamp: Date.now(),
    });
    h.persist(await h.respond(textReply("next response")));
    const beyond = h.persist({
      role: "toolResult",
      toolCallId: "call_a",
      toolName: "read",
      content: [{ type: "text", text: "a result after the next response (same call id)" }],
      isError: false,
      timestamp: Date.now(),
    });
    expect(await checkResponse(h.core, h.newRun(), cut, after)).toEqual({ retry: true });
    const edits = h.store.getBranch().filter((entry) => entry.type === "context_edit");
    expect(edits.map((edit) => edit.targetId)).toEqual([h.idOf(cut), h.idOf(own)]);
    expect(edits.some((edit) => edit.targetId === h.idOf(beyond))).toBe(false);
    expect(edits.map((edit) => edit.replacement)).toEqual([null, null]);
    expect(edits.some((edit) => edit.targetId === h.idOf(foreign))).toBe(false);
  });
});

describe("checkResponse: a failure streak", () => {
  it("a second overflow after the one compact-and-retry fails the recovery: events, error, nothing written", async () => {
    const h = await createCoreHarness();
    const failed = await conversation(h, overflowReply());
    h.core.overflowRecoveryAttempted = true;
    const run = h.newRun();
    expect(await checkResponse(h.core, run, failed, after)).toEqual({ retry: false });
    expect(h.branchShape()).toEqual(["user", "assistant", "user", "assistant"]);
    expect(run.error?.code).toBe("OVERFLOW_RECOVERY_FAILED");
    const message = run.error?.message ?? "";
    expect(message).toContain("still overflows after one compaction and retry");
    expect(h.events).toEqual([
      {
        type: "compaction_end",
        reason: "overflow",
        result: undefined,
        aborted: false,
        willRetry: false,
        errorMessage: message,
      },
      {
        type: "session_compact_failed",
        reason: "overflow",
        errorMessage: message,
        aborted: false,
        willRetry: false,
        fromExtension: false,
      },
      { type: "session_error", error: run.error },
    ]);
  });

  it("a second cut-short response says so, and before a new prompt nothing stops", async () => {
    const h = await createCoreHarness();
    const cut = await conversation(h, textReply("cut", { stopReason: "length", usage: { output: 10 } }));
    h.core.overflowRecoveryAttempted = true;
    const run = h.newRun();
    expect(await checkResponse(h.core, run, cut, beforePrompt)).toEqual({ retry: false });
    expect(run.error).toBeUndefined();
    expect(h.eventTypes()).toEqual(["compaction_end", "session_compact_failed"]);
    expect(h.events[1]).toMatchObject({
      errorMessage: "The response was cut short again after one compaction and retry; not retrying",
    });

    await checkResponse(h.core, run, cut, after);
    expect(run.error?.code).toBe("OVERFLOW_RECOVERY_FAILED");
    expect(run.error?.message).toBe(
      "The response was cut short again after one compaction and retry; not retrying",
    );
  });

  it("a recovery whose compaction is skipped (nothing to compact) keeps the omission and does not retry", async () => {
    const h = await createCoreHarness();
    h.say("hi");
    const failed = h.persist(await h.respond(overflowReply()));
    expect(await checkResponse(h.core, h.newRun(), failed, after)).toEqual({ retry: false });
    expect(h.branchShape()).toEqual(["user", "assistant", "context_edit"]);
    expect(compactionEvents(h)).toEqual([]);
    expect(h.core.overflowRecoveryAttempted).toBe(true);
  });

  it("a recovery whose compaction fails keeps the omission, does not retry, and reports the failure", async () => {
    const h = await createCoreHarness({
      compaction: { compactor: failingCompactor("summary service down") },
    });
    const failed = await conversation(h, overflowReply());
    const run = h.newRun();
    expect(await checkResponse(h.core, run, failed, after)).toEqual({ retry: false });
    expect(h.branchShape().slice(4)).toEqual(["context_edit"]);
    expect(h.events.find((event) => event.type === "session_compact_failed")).toMatchObject({
      reason: "overflow",
      errorMessage: "Context overflow recovery failed: summary service down",
    });
    expect(run.error).toBeUndefined();
    expect(run.autoCompactionSuppressed).toBe(true);
  });
});

describe("checkResponse: the threshold", () => {
  it("compacts when the response's usage is above the threshold, and not at or below it", async () => {
    const above = await createCoreHarness();
    const big = await conversation(above, textReply("ok", { usage: { input: 30_001, output: 0 } }));
    expect(await checkResponse(above.core, above.newRun(), big, after)).toEqual({ retry: false });
    expect(started(above)).toEqual([{ type: "compaction_start", reason: "threshold", willRetry: false }]);
    expect(above.branchShape().at(-1)).toBe("compaction");

    const at = await createCoreHarness();
    const limit = await conversation(at, textReply("ok", { usage: { input: 30_000, output: 0 } }));
    await checkResponse(at.core, at.newRun(), limit, after);
    expect(at.events).toEqual([]);
  });

  it("with edits in the context, the projected estimate decides (not the response's usage)", async () => {
    const h = await createCoreHarness();
    const answer = await conversation(h, textReply("ok", { usage: { input: 31_000, output: 0 } }), 1);
    h.store.appendContextEdit(h.store.getBranch()[0]?.id ?? "", { content: "short now" });
    await checkResponse(h.core, h.newRun(), answer, after);
    expect(h.events).toEqual([]);

    const grown = await createCoreHarness();
    const small = await conversation(grown, textReply("ok", { usage: { input: 100, output: 0 } }), 25);
    grown.store.appendContextEdit(grown.store.getBranch()[1]?.id ?? "", { content: "edited" });
    await checkResponse(grown.core, grown.newRun(), small, after);
    expect(started(grown)).toEqual([{ type: "compaction_start", reason: "threshold", willRetry: false }]);
  });

  it("after a non-overflow error, the estimate from the last valid usage decides", async () => {
    const h = await createCoreHarness();
    const failed = await conversation(h, serverErrorReply(500), 20);
    // usage 10020 of the first answer + 20000 estimated for the second prompt
    await checkResponse(h.core, h.newRun(), failed, after);
    expect(started(h)).toEqual([{ type: "compaction_start", reason: "threshold", willRetry: false }]);
  });

  it("a response without usage is estimated from the context", async () => {
    const h = await createCoreHarness();
    const answer = await conversation(h, textReply("ok", { usage: { input: 0, output: 0 } }), 20);
    await checkResponse(h.core, h.newRun(), answer, after);
    expect(started(h)).toEqual([{ type: "compaction_start", reason: "threshold", willRetry: false }]);

    const small = await createCoreHarness();
    const quiet = await conversation(small, textReply("ok", { usage: { input: 0, output: 0 } }), 5);
    await checkResponse(small.core, small.newRun(), quiet, after);
    expect(small.events).toEqual([]);
  });

  it("an estimate based on usage from before the latest compaction is not trusted", async () => {
    const h = await createCoreHarness();
    h.say(kiloTokens(2, "a"));
    const old = h.persist(await h.respond(textReply("noted", { usage: { input: 35_000, output: 10 } })));
    h.store.appendCompaction({ summary: "done", firstKeptEntryId: h.idOf(old), tokensBefore: 35_000 });
    h.say("next");
    const failed = h.persist(await h.respond(serverErrorReply(500)));
    await checkResponse(h.core, h.newRun(), failed, after);
    expect(h.events).toEqual([]);
  });
});

describe("checkResponse: when it does nothing", () => {
  it("automatic compaction disabled: neither recovery nor threshold", async () => {
    const h = await createCoreHarness({
      settings: { compaction: { enabled: false, reserveTokens: 10_000, keepRecentTokens: 4000 } },
    });
    const failed = await conversation(h, overflowReply());
    expect(await checkResponse(h.core, h.newRun(), failed, after)).toEqual({ retry: false });
    const big: AssistantMessage = h.persist(await h.respond(textReply("ok", { usage: { input: 35_000 } })));
    await checkResponse(h.core, h.newRun(), big, after);
    expect(h.branchShape()).not.toContain("context_edit");
    expect(h.events).toEqual([]);
  });

  it("the prompt already stopped: nothing", async () => {
    const h = await createCoreHarness();
    const failed = await conversation(h, overflowReply());
    const run = h.newRun();
    run.error = new RuntimeError("COMPACTION_LOOP_GUARD", "stopped");
    expect(await checkResponse(h.core, run, failed, after)).toEqual({ retry: false });
    expect(h.branchShape()).toEqual(["user", "assistant", "user", "assistant"]);
    expect(h.events).toEqual([]);
  });

  it("an aborted response is ignored after a run, but its usage counts before a new prompt", async () => {
    const h = await createCoreHarness();
    const answer = await conversation(h, textReply("parti", { usage: { input: 31_000, output: 0 } }));
    const aborted: AssistantMessage = { ...answer, stopReason: "aborted" };
    h.core.entryIds.set(aborted, h.idOf(answer));
    await checkResponse(h.core, h.newRun(), aborted, after);
    expect(h.events).toEqual([]);
    await checkResponse(h.core, h.newRun(), aborted, beforePrompt);
    expect(started(h)).toEqual([{ type: "compaction_start", reason: "threshold", willRetry: false }]);
  });
});
