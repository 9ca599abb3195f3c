import type { ProviderEvent, ProviderRequest } from "@arbor/providers";
import { describe, expect, it } from "vitest";
import { ANTHROPIC_CACHE_RULES } from "./price-table";
import { createPromptCacheModel } from "./prompt-cache-model";
import { createReplayProvider, type ReplayRequestRecord, replayBreakpoints } from "./replay-provider";
import { charTokenCounter, recordedAnswer, replayTestModel, userText } from "./replay-test-fixtures";

const model = replayTestModel;
const counter = charTokenCounter;
const answer = recordedAnswer;
const user = userText;

async function collect(events: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const all: ProviderEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe("createReplayProvider", () => {
  it("answers with the recorded messages and bills cache writes, then reads, at the table's prices", async () => {
    const steps = [answer("first", 1_000, 10), answer("second", 61_000, 20)];
    const records: ReplayRequestRecord[] = [];
    const provider = createReplayProvider({
      model,
      answers: { next: () => steps.shift() },
      counter,
      cache: createPromptCacheModel({ ...ANTHROPIC_CACHE_RULES, minCacheableTokens: 1 }),
      price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
      onRequest: (record) => records.push(record),
    });
    // Head: the JSON of ["",[]] is 7 characters → 7 tokens.
    const first: ProviderRequest = { model, messages: [user("a".repeat(993))] };
    const events = await collect(provider.stream(first));
    expect(events.map((event) => event.type)).toEqual(["start", "done"]);
    const done = events[1] as Extract<ProviderEvent, { type: "done" }>;
    expect(done.message.content).toEqual([{ type: "text", text: "first" }]);
    expect(done.message.usage).toMatchObject({ input: 0, cacheWrite: 1000, cacheRead: 0, output: 10 });
    // 1000 × 3.75 / 1M + 10 × 15 / 1M
    expect(records[0]?.costUsd).toBeCloseTo(0.00375 + 0.00015, 10);

    const second: ProviderRequest = {
      model,
      messages: [...first.messages, done.message, user("b".repeat(95))],
    };
    await collect(provider.stream(second));
    // 1000 read; "first" (5) + 95 written.
    expect(records[1]).toMatchObject({
      contextTokens: 1100,
      cacheRead: 1000,
      cacheWrite: 100,
      input: 0,
      output: 20,
    });
    expect(records[1]?.costUsd).toBeCloseTo((1000 * 0.3 + 100 * 3.75 + 20 * 15) / 1e6, 10);
  });

  it("refuses a request over the window as a context overflow, without using an answer", async () => {
    const steps = [answer("kept", 1_000)];
    const records: ReplayRequestRecord[] = [];
    const provider = createReplayProvider({
      model,
      answers: { next: () => steps.shift() },
      counter,
      cache: createPromptCacheModel(ANTHROPIC_CACHE_RULES),
      price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
      onRequest: (record) => records.push(record),
    });
    const events = await collect(provider.stream({ model, messages: [user("x".repeat(10_001))] }));
    const last = events.at(-1) as Extract<ProviderEvent, { type: "error" }>;
    expect(last.type).toBe("error");
    expect(last.error.code).toBe("PROVIDER_CONTEXT_OVERFLOW");
    expect(records[0]).toMatchObject({ overflow: true, costUsd: 0 });
    expect(steps).toHaveLength(1);
    // With no answer left, a placeholder ends the turn and the request is marked unmatched.
    steps.length = 0;
    await collect(provider.stream({ model, messages: [user("y")] }));
    expect(records[1]).toMatchObject({ unmatched: true, overflow: false });
  });

  it("with a cache anchor, an edit after the anchor rewrites only what follows it", async () => {
    const steps = [answer("one", 1_000, 1), answer("two", 2_000, 1), answer("three", 3_000, 1)];
    const records: ReplayRequestRecord[] = [];
    const provider = createReplayProvider({
      model,
      answers: { next: () => steps.shift() },
      counter,
      cache: createPromptCacheModel({ ...ANTHROPIC_CACHE_RULES, minCacheableTokens: 1, lookbackBlocks: 1 }),
      price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
      onRequest: (record) => records.push(record),
    });
    const first: ProviderRequest = { model, messages: [user("a".repeat(993))] };
    const done = (await collect(provider.stream(first))).at(-1) as Extract<ProviderEvent, { type: "done" }>;
    // Head 7 + 993; "one" 3 + 500 + 300 + 200.
    const tail = [
      user("b".repeat(500)),
      { ...done.message, content: [{ type: "text" as const, text: "x".repeat(300) }] },
      user("c".repeat(200)),
    ];
    const second: ProviderRequest = {
      model,
      messages: [...first.messages, done.message, ...tail],
      cacheAnchor: 0,
    };
    expect(replayBreakpoints(second, 6)).toEqual([0, 1, 5]);
    await collect(provider.stream(second));
    expect(records[1]).toMatchObject({ cacheRead: 1000, cacheWrite: 1003 });
    // The 500-token message is edited (20 tokens now): the anchored prefix (1000) is still read,
    // only what follows it is written again; without the anchor, nothing but the head would be.
    const edited: ProviderRequest = {
      ...second,
      messages: [first.messages[0] as never, done.message, user("d".repeat(20)), ...tail.slice(1)],
    };
    await collect(provider.stream(edited));
    expect(records[2]).toMatchObject({ cacheRead: 1000, cacheWrite: 523 });
  });
});
