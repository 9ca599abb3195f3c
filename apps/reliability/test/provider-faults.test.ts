import type { AssistantMessage } from "@arbor/providers";
import {
  overflowReply,
  rateLimitReply,
  serverErrorReply,
  textReply,
  toolCallReply,
  type WireReply,
} from "@arbor/providers/testing";
import type { AgentSessionEvent } from "@arbor/runtime";
import { afterEach, describe, expect, it } from "vitest";
import { checkSessionAfterFault, findWireRequestProblems } from "../src/check-turn-integrity";
import { createRuntimeHarness, type RuntimeHarness, type WireApi } from "../src/create-runtime-harness";
import { recordFigures } from "../src/figures";

/**
 * Provider faults served by the wire-level test server through the official SDKs, into an agent
 * session (`@arbor/runtime`) on a JSONL file. Each case checks the runtime's documented behaviour,
 * then that the file holds only whole turns, and that the next prompt sends a well-formed request.
 */
const faultsSeen: Record<string, number> = {};
const count = (name: string) => {
  faultsSeen[name] = (faultsSeen[name] ?? 0) + 1;
};

let h: RuntimeHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function roles(harness: RuntimeHarness): string[] {
  return harness.store
    .getEntries()
    .map((entry) => (entry.type === "message" ? `${entry.message.role}${stop(entry.message)}` : entry.type));
}

function stop(message: { role: string }): string {
  const reason = (message as Partial<AssistantMessage>).stopReason;
  return message.role === "assistant" && reason !== "stop" && reason !== undefined ? `:${reason}` : "";
}

function waitForEvent(harness: RuntimeHarness, match: (event: AgentSessionEvent) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const stopListening = harness.session.subscribe((event) => {
      if (match(event)) {
        stopListening();
        resolve();
      }
    });
  });
}

/** Summary requests (compaction) are told apart by their system prompt. */
function isSummaryRequest(body: unknown): boolean {
  const system = (body as { system?: unknown; messages?: Array<{ role: string; content: unknown }> }).system;
  const text =
    system === undefined
      ? JSON.stringify((body as { messages?: unknown[] }).messages?.[0] ?? "")
      : JSON.stringify(system);
  return /checkpoint/i.test(text);
}

/** The session file is consistent and the next prompt goes out well-formed and completes. */
async function expectCleanFollowUp(harness: RuntimeHarness): Promise<void> {
  expect(checkSessionAfterFault(harness.file, harness.model)).toEqual([]);
  harness.server.enqueue(textReply("fine"));
  const before = harness.server.requests.length;
  const result = await harness.session.prompt("and now?");
  expect(result.stopReason).toBe("stop");
  const request = harness.server.requests[before];
  expect(findWireRequestProblems(request?.body, harness.api)).toEqual([]);
  expect(checkSessionAfterFault(harness.file, harness.model)).toEqual([]);
}

afterEach(() => {
  recordFigures("provider-faults", { scenariosPassed: faultsSeen, sdks: ["anthropic", "openai"] });
});

describe.each<WireApi>(["anthropic", "openai"])("provider faults through the runtime (%s SDK)", (api) => {
  it("429 with retry-after: waits as told, retries, the turn completes", async () => {
    h = await createRuntimeHarness(api);
    h.server.enqueue(
      rateLimitReply({ retryAfterSeconds: 0.2 }),
      toolCallReply("read", { path: "a.ts" }),
      textReply("done"),
    );
    const result = await h.session.prompt("read a.ts");
    expect(result.stopReason).toBe("stop");
    const retries = h.events.flatMap((e) =>
      e.type === "message_update" && e.assistantMessageEvent.type === "retry"
        ? [e.assistantMessageEvent]
        : [],
    );
    expect(retries.map((r) => [r.attempt, r.delayMs, r.error.code])).toEqual([
      [1, 200, "PROVIDER_RATE_LIMITED"],
    ]);
    expect(h.server.requests).toHaveLength(3);
    expect(roles(h)).toEqual(["user", "assistant:toolUse", "toolResult", "assistant"]);
    await expectCleanFollowUp(h);
    count("429 retry-after honoured");
  });

  it("429 asking for more than the retry budget: an error response, kept and never re-sent", async () => {
    h = await createRuntimeHarness(api);
    h.server.enqueue(rateLimitReply({ retryAfterSeconds: 3600 }));
    const result = await h.session.prompt("hello");
    expect(result.lastAssistant?.stopReason).toBe("error");
    expect(result.lastAssistant?.errorMessage).toMatch(/rate limit/i);
    expect(h.server.requests).toHaveLength(1);
    expect(roles(h)).toEqual(["user", "assistant:error"]);
    await expectCleanFollowUp(h);
    count("429 beyond the retry budget");
  });

  it("500 once: retried after a backoff, the turn completes", async () => {
    h = await createRuntimeHarness(api);
    h.server.enqueue(serverErrorReply(500), textReply("ok"));
    const result = await h.session.prompt("hello");
    expect(result.stopReason).toBe("stop");
    expect(h.server.requests).toHaveLength(2);
    expect(roles(h)).toEqual(["user", "assistant"]);
    await expectCleanFollowUp(h);
    count("500 then success");
  });

  it("500 on every attempt: an error response after 3 attempts, the session stays usable", async () => {
    h = await createRuntimeHarness(api);
    h.server.enqueue(serverErrorReply(500), serverErrorReply(500), serverErrorReply(500));
    const result = await h.session.prompt("hello");
    expect(result.lastAssistant?.stopReason).toBe("error");
    expect(h.server.requests).toHaveLength(3);
    expect(roles(h)).toEqual(["user", "assistant:error"]);
    await expectCleanFollowUp(h);
    count("500 on every attempt");
  });

  it("stream cut inside a tool call: the partial call is kept in an errored message, never run", async () => {
    h = await createRuntimeHarness(api);
    const path = `src/${"deep/".repeat(30)}file.ts`;
    h.server.enqueue(
      toolCallReply("read", { path }, { text: "Let me look.", chunkSize: 4, cutAfterEvents: 9 }),
    );
    const result = await h.session.prompt("read it");
    expect(result.lastAssistant?.stopReason).toBe("error");
    expect(h.toolCalls).toEqual([]);
    expect(h.server.requests).toHaveLength(1); // content had arrived: not retried
    expect(roles(h)).toEqual(["user", "assistant:error"]);
    await expectCleanFollowUp(h);
    count("stream cut in a tool call");
  });

  it("stream cut mid-text: the partial text is kept as an errored message", async () => {
    h = await createRuntimeHarness(api);
    const full = "word ".repeat(60);
    h.server.enqueue(textReply(full, { chunkSize: 5, cutAfterEvents: 8 }));
    const result = await h.session.prompt("talk");
    const text = result.lastAssistant?.content.map((b) => (b.type === "text" ? b.text : "")).join("") ?? "";
    expect(result.lastAssistant?.stopReason).toBe("error");
    expect(text.length).toBeGreaterThan(0);
    expect(text.length).toBeLessThan(full.length);
    expect(roles(h)).toEqual(["user", "assistant:error"]);
    await expectCleanFollowUp(h);
    count("stream cut mid-text");
  });

  it("slow reply then abort: the partial message is kept as aborted and left out of the next request", async () => {
    h = await createRuntimeHarness(api);
    h.server.enqueue(textReply("slow ".repeat(40), { chunkSize: 5, eventDelayMs: 50 }));
    const firstDelta = waitForEvent(
      h,
      (e) => e.type === "message_update" && e.assistantMessageEvent.type === "text-delta",
    );
    const running = h.session.prompt("take your time");
    await firstDelta;
    await h.session.abort();
    const result = await running;
    expect(result.stopReason).toBe("aborted");
    expect(roles(h)).toEqual(["user", "assistant:aborted"]);
    await expectCleanFollowUp(h);
    count("slow reply then abort");
  });

  it("abort while a tool runs: the call gets an aborted result, the turn stays whole", async () => {
    h = await createRuntimeHarness(api, { toolDelayMs: 30_000 });
    h.server.enqueue(toolCallReply("read", { path: "slow.ts" }));
    const toolStarted = waitForEvent(h, (e) => e.type === "tool_execution_start");
    const running = h.session.prompt("read slow.ts");
    await toolStarted;
    await h.session.abort();
    const result = await running;
    expect(result.stopReason).toBe("aborted");
    expect(roles(h)).toEqual(["user", "assistant:toolUse", "toolResult"]);
    const toolResult = h.store.getEntries()[2];
    expect(
      toolResult?.type === "message" &&
        toolResult.message.role === "toolResult" &&
        toolResult.message.isError,
    ).toBe(true);
    await expectCleanFollowUp(h);
    count("abort during a tool run");
  });

  it("context overflow: the failed attempt is hidden, the session compacts once and retries once", async () => {
    h = await createRuntimeHarness(api, {
      settings: { compaction: { reserveTokens: 10_000, keepRecentTokens: 4000 } },
    });
    const agent: WireReply[] = [textReply("hi"), overflowReply("native"), textReply("recovered")];
    const summaries: WireReply[] = [textReply("## Goal\nSUMMARY"), textReply("## Original Request\nPREFIX")];
    for (let i = 0; i < agent.length + summaries.length; i++) {
      h.server.enqueue((request) => {
        const next = (isSummaryRequest(request.body) ? summaries : agent).shift();
        if (next === undefined) throw new Error("script exhausted");
        return typeof next === "function" ? next(request) : next;
      });
    }
    await h.session.prompt("hello");
    const result = await h.session.prompt(`Summarize this log. ${"l".repeat(60_000)}`);
    expect(result.retried).toBe(true);
    expect(result.stopReason).toBe("stop");
    expect(h.events.filter((e) => e.type === "compaction_start")).toEqual([
      { type: "compaction_start", reason: "overflow", willRetry: true },
    ]);
    expect(roles(h)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant:error",
      "context_edit",
      "compaction",
      "assistant",
    ]);
    await expectCleanFollowUp(h);
    count("context overflow");
  });
});
