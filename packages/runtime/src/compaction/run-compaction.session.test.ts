/**
 * What the compaction pipeline (`runCompaction`) takes from the session: its token counter, the
 * defaults of a session created without compaction options or compaction settings, and its abort
 * signal, which reaches an extension's `session_before_compact` handler. A real JSONL store; model
 * summaries through the Anthropic SDK from the wire server.
 */
import type { AgentMessage } from "@arbor/agent-loop";
import type { TokenCounter } from "@arbor/compaction";
import { serverErrorReply, textReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import { closeCoreHarnesses, createCoreHarness } from "../../test/helpers/core-harness";
import { runCompaction } from "./run-compaction";

afterEach(closeCoreHarnesses);

const live = () => new AbortController().signal;

describe("runCompaction: what it takes from the session", () => {
  it("the preparation counts with the session's token counter (tokensBefore)", async () => {
    const counted: AgentMessage[] = [];
    const tokenCounter: TokenCounter = {
      name: "json-length",
      countMessage(message) {
        counted.push(message);
        return JSON.stringify(message).length;
      },
    };
    const h = await createCoreHarness({ compaction: { provider: null, tokenCounter } });
    const first = h.say("a".repeat(40_000));
    const second = h.say("b".repeat(40_000));
    const outcome = await runCompaction(h.core, { reason: "manual", willRetry: false, signal: live() });
    if (outcome.status !== "compacted") throw new Error("expected a compaction");
    const expected = JSON.stringify(first).length + JSON.stringify(second).length;
    expect(outcome.result.tokensBefore).toBe(expected);
    expect(counted).toContain(first);
  });

  it("a session without compaction options or settings: the session's model summarizes, offline when it fails", async () => {
    const h = await createCoreHarness({ llmSummaries: true, settings: {} });
    h.core.options.compaction = undefined;
    // Default keepRecentTokens is 20000: of three 12k-token prompts the first is summarized.
    const fill = () => {
      for (const letter of ["a", "b", "c"]) h.say(letter.repeat(48_000));
    };
    fill();
    h.server.enqueue(textReply("## Goal\nFROM-THE-SESSION-MODEL", { usage: { input: 500, output: 20 } }));
    const byModel = await runCompaction(h.core, { reason: "manual", willRetry: false, signal: live() });
    if (byModel.status !== "compacted") throw new Error("expected a compaction");
    expect(byModel.result.summarizer).toBe("model");
    expect(byModel.result.summary).toContain("FROM-THE-SESSION-MODEL");
    expect(h.server.requests.at(-1)?.body).toMatchObject({ model: "claude-test" });

    fill();
    h.server.enqueue(serverErrorReply(500));
    const offline = await runCompaction(h.core, { reason: "threshold", willRetry: false, signal: live() });
    if (offline.status !== "compacted") throw new Error("expected a compaction");
    expect(offline.result.summarizer).toBe("offline");
    expect(offline.result.usage).toBeUndefined();
    expect(h.events.filter((event) => event.type === "compaction_fallback")).toHaveLength(1);
  });

  it("an abort aborts the signal the extension's handler was given, without waiting for the handler", async () => {
    const h = await createCoreHarness();
    h.say("a".repeat(40_000));
    h.say("b".repeat(40_000));
    const controller = new AbortController();
    const reason = new Error("the user pressed Escape");
    const seen: unknown[] = [];
    h.core.bus.on("session_before_compact", (_event, context) => {
      setTimeout(() => controller.abort(reason), 20);
      return new Promise<undefined>((resolve) => {
        context.signal.addEventListener("abort", () => {
          seen.push(context.signal.reason);
          resolve(undefined);
        });
      });
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
    expect(seen).toEqual([reason]);
    const [end, failed] = h.events.slice(-2);
    // Aborted: the events carry no error message at all (not even an undefined one).
    expect(end).toStrictEqual({
      type: "compaction_end",
      reason: "manual",
      result: undefined,
      aborted: true,
      willRetry: false,
    });
    expect(failed).toStrictEqual({
      type: "session_compact_failed",
      reason: "manual",
      aborted: true,
      willRetry: false,
      fromExtension: false,
    });
  });
});
