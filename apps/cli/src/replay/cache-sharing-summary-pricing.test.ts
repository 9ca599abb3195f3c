/**
 * A cache-sharing summary priced by the replay's cache model: the request a model would be sent
 * (`cacheSharingSummaryRequest`) accounted like any request, against the cache the conversation's
 * own requests filled. Hand-computed with one token per character.
 */
import { CACHE_SHARING_SUMMARY_PROMPT, cacheSharingSummaryRequest } from "@arbor/compaction";
import type { AssistantMessage, ProviderRequest } from "@arbor/providers";
import { describe, expect, it } from "vitest";
import { ANTHROPIC_CACHE_RULES } from "./price-table";
import { createPromptCacheModel } from "./prompt-cache-model";
import { createReplayProvider } from "./replay-provider";
import type { ReplayStep } from "./replay-script";
import { charTokenCounter, recordedAssistant, replayTestModel, userText } from "./replay-test-fixtures";

const model = replayTestModel;
const counter = charTokenCounter;
const assistant = recordedAssistant;
const user = userText;

/** A replay provider that served one request (993 tokens of prompt, 7 of head) answered "first" at t = 1000. */
async function afterOneRequest() {
  const steps: ReplayStep[] = [{ assistant: assistant("first", 1_000), results: new Map() }];
  const provider = createReplayProvider({
    model,
    answers: { next: () => steps.shift() },
    counter,
    cache: createPromptCacheModel({ ...ANTHROPIC_CACHE_RULES, minCacheableTokens: 1 }),
    price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    onRequest: () => {},
  });
  const request: ProviderRequest = { model, messages: [user("a".repeat(993))] };
  let answer: AssistantMessage | undefined;
  for await (const event of provider.stream(request)) if (event.type === "done") answer = event.message;
  if (answer === undefined) throw new Error("no answer");
  // What a cache-sharing summary sends: the request's messages, its answer, then the instruction.
  const shared = cacheSharingSummaryRequest(
    { messages: [...request.messages, answer], cachedThrough: request.messages.length - 1 },
    model,
  );
  if (shared === undefined) throw new Error("the summary request should fit");
  return { provider, summary: shared.request };
}

describe("a cache-sharing summary in the replay's cache model", () => {
  const instruction = CACHE_SHARING_SUMMARY_PROMPT.length;

  it("right after the request: reads its prefix (head + prompt), writes the answer and the instruction", async () => {
    const { provider, summary } = await afterOneRequest();
    expect(summary.cacheAnchor).toBe(0);
    expect(provider.accountUnanswered(summary)).toEqual({
      input: 0,
      cacheRead: 7 + 993,
      cacheWrite: 5 + instruction,
      contextTokens: 7 + 993 + 5 + instruction,
    });
  });

  it("after the time-to-live: nothing is read, the whole request is written", async () => {
    const { provider, summary } = await afterOneRequest();
    const late = 1_000 + ANTHROPIC_CACHE_RULES.ttlMs + 1;
    expect(provider.accountUnanswered(summary, late)).toEqual({
      input: 0,
      cacheRead: 0,
      cacheWrite: 7 + 993 + 5 + instruction,
      contextTokens: 7 + 993 + 5 + instruction,
    });
  });

  it("a fresh summary request (pi's shape: another system prompt, no tools) reads nothing", async () => {
    const { provider } = await afterOneRequest();
    const fresh: ProviderRequest = {
      model,
      systemPrompt: "You write checkpoint summaries.",
      messages: [user(`<conversation>\n[User]: ${"a".repeat(993)}\n</conversation>`)],
    };
    expect(provider.accountUnanswered(fresh).cacheRead).toBe(0);
  });
});
