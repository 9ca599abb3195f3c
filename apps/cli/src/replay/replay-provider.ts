import { createHash } from "node:crypto";
import type { AgentMessage } from "@arbor/agent-loop";
import {
  type AssistantMessage,
  isCacheAnchorUsable,
  type Model,
  type Provider,
  ProviderError,
  type ProviderEvent,
  type ProviderRequest,
} from "@arbor/providers";
import { dollars, type ReplayPrice } from "./price-table";
import type { CacheAccount, CacheBlock, PromptCacheModel } from "./prompt-cache-model";
import type { ReplayStep } from "./replay-script";

/** Counts tokens of texts and messages (the tiktoken counter of `@arbor/compaction/tiktoken`). */
export interface ReplayTokenCounter {
  countText(text: string): number;
  countMessage(message: AgentMessage): number;
}

/** What one request cost, as the replay provider accounted it. */
export interface ReplayRequestRecord {
  /** Recorded time of the answer served (ms since the epoch). */
  time: number;
  /** Every input token of the request (system prompt, tools, messages). */
  contextTokens: number;
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  costUsd: number;
  /** True when the request did not fit the window and was refused as a context overflow. */
  overflow: boolean;
  /** True when no recorded answer was left and a placeholder answered. */
  unmatched: boolean;
}

/**
 * The replay provider: a {@link Provider} that also accounts a request it does not answer (a summary
 * the offline summarizer writes, priced as the request a model would have been sent).
 */
export interface ReplayProvider extends Provider {
  /**
   * Splits `request`'s input like any request (the same blocks, breakpoints and cache) at `time`
   * (default: the time of the latest answer, since a summary is sent right after it) and updates the
   * cache, without answering or recording it. Returns the input split and the request's input tokens.
   */
  accountUnanswered(request: ProviderRequest, time?: number): CacheAccount & { contextTokens: number };
}

/** Where the replay provider takes its answers from: the driver moves it from turn to turn. */
export interface ReplayAnswerSource {
  /** The next recorded answer, or undefined when the current turn has none left. */
  next(): ReplayStep | undefined;
}

/** Options of {@link createReplayProvider}. */
export interface ReplayProviderOptions {
  model: Model;
  answers: ReplayAnswerSource;
  counter: ReplayTokenCounter;
  cache: PromptCacheModel;
  price: ReplayPrice;
  /** Called once per request, in order. */
  onRequest(record: ReplayRequestRecord, step: ReplayStep | undefined): void;
}

/** The provider's own memo of message token counts, keyed by the message's JSON. */
function memoCounter(counter: ReplayTokenCounter) {
  const byText = new Map<string, { tokens: number; key: string }>();
  const byObject = new WeakMap<object, { tokens: number; key: string }>();
  return (message: AgentMessage): { tokens: number; key: string } => {
    const known = byObject.get(message);
    if (known !== undefined) return known;
    const text = JSON.stringify(message);
    let counted = byText.get(text);
    if (counted === undefined) {
      counted = { tokens: counter.countMessage(message), key: createHash("sha1").update(text).digest("hex") };
      byText.set(text, counted);
    }
    byObject.set(message, counted);
    return counted;
  };
}

/** Prefix keys remembered at most (then forgotten at once): ~190 bytes each, ~95 MB when full. */
const MAX_CHAINED_KEYS = 500_000;

/**
 * The prefix key after `prefix` extended by a message of key `key`: the SHA-1 of both, remembered,
 * since every request repeats the conversation's prefix (one hash per message per request cost
 * ~15% of a long replay). Both are 40 hex digits, so their concatenation names the pair.
 */
function chainKeys(): (prefix: string, key: string) => string {
  let known = new Map<string, string>();
  return (prefix, key) => {
    const pair = prefix + key;
    let next = known.get(pair);
    if (next === undefined) {
      next = createHash("sha1").update(prefix).update(key).digest("hex");
      if (known.size >= MAX_CHAINED_KEYS) known = new Map();
      known.set(pair, next);
    }
    return next;
  };
}

/**
 * A provider that answers every request with the next recorded answer (the replay's subject under
 * test is the context the runtime sends, not the answer). Each request is measured: its tokens
 * counted with `counter`, split into plain input, cache reads and cache writes by `cache` at the
 * recorded time of the answer, and priced with `price`. A request larger than the model's context
 * window is refused with a context-overflow error (as a real provider would), without using up an
 * answer. With no answer left in the turn, a short placeholder answer ends the turn (`unmatched`).
 *
 * Streams `start` then `done` (no deltas). Never throws. `accountUnanswered` prices a request that
 * is not sent (see {@link ReplayProvider}).
 */
export function createReplayProvider(options: ReplayProviderOptions): ReplayProvider {
  const { model, answers, counter, cache, price, onRequest } = options;
  const count = memoCounter(counter);
  const chainKey = chainKeys();
  let lastTime = 0;
  const headCounts = new Map<string, number>();

  const measure = (request: ProviderRequest) => {
    const head = JSON.stringify([request.systemPrompt ?? "", request.tools ?? []]);
    let headTokens = headCounts.get(head);
    if (headTokens === undefined) {
      headTokens = counter.countText(head);
      headCounts.set(head, headTokens);
    }
    const hash = createHash("sha1").update(head);
    let prefix = hash.copy().digest("hex");
    const blocks: CacheBlock[] = [{ prefixKey: prefix, tokens: headTokens }];
    for (const message of request.messages) {
      const { tokens, key } = count(message as AgentMessage);
      prefix = chainKey(prefix, key);
      blocks.push({ prefixKey: prefix, tokens });
    }
    return blocks;
  };

  return {
    specificationVersion: "v1",
    name: "replay",
    accountUnanswered(request, time = lastTime) {
      const blocks = measure(request);
      const contextTokens = blocks.reduce((sum, block) => sum + block.tokens, 0);
      const breakpoints = replayBreakpoints(request, blocks.length);
      return { ...cache.account({ blocks, breakpoints, time }), contextTokens };
    },
    async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
      const blocks = measure(request);
      const contextTokens = blocks.reduce((sum, block) => sum + block.tokens, 0);
      const empty: AssistantMessage = {
        role: "assistant",
        content: [],
        api: model.api,
        provider: model.provider,
        model: model.id,
        usage: zeroUsage(),
        stopReason: "stop",
        timestamp: lastTime,
      };
      yield { type: "start", partial: empty };
      if (contextTokens > model.contextWindow) {
        onRequest(
          {
            time: lastTime,
            contextTokens,
            input: 0,
            cacheRead: 0,
            cacheWrite: 0,
            output: 0,
            costUsd: 0,
            overflow: true,
            unmatched: false,
          },
          undefined,
        );
        const text = `prompt is too long: ${contextTokens} tokens > ${model.contextWindow} maximum`;
        const message: AssistantMessage = { ...empty, stopReason: "error", errorMessage: text };
        yield {
          type: "error",
          message,
          error: new ProviderError("PROVIDER_CONTEXT_OVERFLOW", text, { status: 400, provider: "replay" }),
        };
        return;
      }
      const step = answers.next();
      const time = Math.max(lastTime, step?.assistant.timestamp ?? lastTime + 1000);
      lastTime = time;
      const breakpoints = replayBreakpoints(request, blocks.length);
      const account = cache.account({ blocks, breakpoints, time });
      const content = step?.assistant.content ?? [
        { type: "text" as const, text: "(replay: no recorded answer left)" },
      ];
      const recordedOutput = step?.assistant.usage?.output ?? 0;
      const output =
        recordedOutput > 0 ? recordedOutput : counter.countMessage({ ...empty, content } as AgentMessage);
      const costUsd =
        dollars(account.input, price.input) +
        dollars(account.cacheRead, price.cacheRead) +
        dollars(account.cacheWrite, price.cacheWrite) +
        dollars(output, price.output);
      const usage = {
        input: account.input,
        output,
        cacheRead: account.cacheRead,
        cacheWrite: account.cacheWrite,
        totalTokens: contextTokens + output,
        cost: {
          input: dollars(account.input, price.input),
          output: dollars(output, price.output),
          cacheRead: dollars(account.cacheRead, price.cacheRead),
          cacheWrite: dollars(account.cacheWrite, price.cacheWrite),
          total: costUsd,
        },
      };
      onRequest(
        { time, contextTokens, ...account, output, costUsd, overflow: false, unmatched: step === undefined },
        step,
      );
      const stopReason = step?.assistant.stopReason === "toolUse" ? "toolUse" : "stop";
      const message: AssistantMessage = { ...empty, content, usage, stopReason, timestamp: time };
      yield { type: "done", message };
    },
  };
}

/**
 * The cache breakpoints the Anthropic adapter sends, as block indexes of the replay's blocks (block 0
 * is the system prompt and tools, block `i + 1` is `request.messages[i]`): the head, the block after
 * a usable `request.cacheAnchor` (see `isCacheAnchorUsable`: the adapter marks the wire message that
 * ends with that message) and the last block. Pure.
 */
export function replayBreakpoints(request: ProviderRequest, blockCount: number): number[] {
  const last = blockCount - 1;
  const anchor = request.cacheAnchor;
  if (anchor === undefined || !isCacheAnchorUsable(request.messages, anchor) || anchor + 1 >= last)
    return [0, last];
  return [0, anchor + 1, last];
}

function zeroUsage(): AssistantMessage["usage"] {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}
