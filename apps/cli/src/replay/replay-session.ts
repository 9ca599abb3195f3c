import type { AgentTool } from "@arbor/agent-loop";
import { createTiktokenCounter } from "@arbor/compaction/tiktoken";
import type { Model, Provider } from "@arbor/providers";
import {
  type ContextPolicyName,
  type ContextPolicySettings,
  createAgentSession,
  type Settings,
} from "@arbor/runtime";
import { createInMemorySessionStore, type SessionEntry } from "@arbor/session-store";
import { buildCostSeries, type PlacedSummaryCost } from "./build-cost-series";
import { extractRetentionFacts, measureRetention, visibleText } from "./measure-retention";
import { cacheRulesFor, dollars, priceFor } from "./price-table";
import { createPromptCacheModel } from "./prompt-cache-model";
import { createReplayCompactor, type ReplaySummaryRecord } from "./replay-compactor";
import { createReplayProvider, type ReplayRequestRecord } from "./replay-provider";
import { buildReplayScript, type ReplayStep } from "./replay-script";

/** A model that writes the replay's summaries, with the provider that reaches it. */
export interface ReplaySummarizer {
  model: Model;
  provider: Provider;
}

/** Options of {@link replaySession}. */
export interface ReplayOptions {
  /** The recorded path, root → leaf (message entries are replayed, the rest ignored). */
  path: readonly SessionEntry[];
  /** The model the requests are measured for (its `contextWindow` may be reduced with `--window`). */
  model: Model;
  /** The policy and its knobs (`settings.contextPolicy`). */
  policy: ContextPolicySettings;
  /** Compaction settings of the replayed session (defaults: the runtime's). */
  compaction?: Settings["compaction"];
  /** Writes the summaries through a real provider; default: the offline summarizer. */
  summarizer?: ReplaySummarizer;
}

/** One point of the replay's curve (one request): its context, and every request and summary paid so far. */
export interface ReplayPoint {
  contextTokens: number;
  cumulativeCostUsd: number;
}

/** What `arbor replay` reports for one session and policy. */
export interface ReplayReport {
  policy: ContextPolicyName;
  model: string;
  contextWindow: number;
  /** Recorded user prompts replayed. */
  prompts: number;
  requests: number;
  /** Uncached input tokens (billed at the input price). */
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  summaryCalls: number;
  /** Summaries asked for as the conversation itself (cache-sharing), priced by the prompt-cache rules. */
  cacheSharingSummaries: number;
  /**
   * `offline` (the offline summarizer wrote them: its figures are estimates of what the session's
   * model would have read and written) or the summary model's `provider/id` (its reported usage).
   */
  summarizer: string;
  /**
   * Input tokens of the summaries: with a summary model, what its provider reported; offline, what a
   * model would have read (the context before each compaction less what it keeps verbatim).
   */
  summaryInputTokens: number;
  summaryOutputTokens: number;
  /** The summaries' cost: at the summary model's price from its usage; offline, at the session model's price. */
  summaryCostUsd: number;
  contextEdits: number;
  /** Requests plus summaries, at the price table. */
  costUsd: number;
  peakContextTokens: number;
  /** Requests whose input came within 5% of the context window. */
  nearWindowRequests: number;
  overflows: number;
  /** Runs stopped by the compaction loop guard. */
  loops: number;
  /** Runs the session stopped for another reason (`CONTEXT_STILL_TOO_LARGE`, …). */
  stoppedRuns: number;
  /** Requests no recorded answer was left for (a placeholder answered). */
  unmatchedRequests: number;
  /** Recorded messages replay could not send (see `buildReplayScript`). */
  skippedMessages: number;
  /** Share (0..1) of the path's facts still visible at the end (see `measureRetention`). */
  retention: number;
  retentionFacts: { total: number; visible: number; missing: string[] };
  /** One point per request, in order. */
  series: ReplayPoint[];
}

/** Tools with the recorded tool names; each returns the recorded result of the call being answered. */
function replayTools(names: Iterable<string>, currentStep: () => ReplayStep | undefined): AgentTool[] {
  return [...names].map((name) => ({
    name,
    description: `recorded ${name} tool (replay: returns the recorded result)`,
    parameters: { type: "object" },
    async execute(_args, context) {
      const result = currentStep()?.results.get(context.toolCallId);
      if (result === undefined)
        return { content: [{ type: "text", text: "(no result was recorded)" }], isError: true };
      return { content: result.content, isError: result.isError, details: result.details };
    },
  }));
}

/**
 * Replays a recorded path through `createAgentSession` with the context policy `policy`: every
 * recorded prompt is sent (a prompt recorded while tools ran is sent as a steering message), the
 * replay provider answers each request with the next recorded answer, tools return the recorded
 * results, summaries come from the offline summarizer (or `summarizer`, through its provider), token counts are exact (tiktoken o200k) and
 * cache reads / writes follow the model's provider rules at the recorded times.
 * Resolves with the report; the in-memory session is discarded. Throws only on a broken contract.
 */
export async function replaySession(options: ReplayOptions): Promise<ReplayReport> {
  const script = buildReplayScript(options.path);
  const counter = createTiktokenCounter();
  const records: ReplayRequestRecord[] = [];
  /** How many entries the session held when each request was sent (places summaries on the curve). */
  const entriesAtRequest: number[] = [];
  const delivered = new Set<number>();
  let turnIndex = 0;
  let stepIndex = 0;
  let current: ReplayStep | undefined;
  let steer: (turn: number) => void = () => {};
  const answers = {
    next(): ReplayStep | undefined {
      const turn = script.turns[turnIndex];
      const step = turn?.steps[stepIndex];
      if (step === undefined) return undefined;
      stepIndex++;
      current = step;
      const following = script.turns[turnIndex + 1];
      if (stepIndex === turn?.steps.length && following?.steering === true) steer(turnIndex + 1);
      return step;
    },
  };
  const model = options.model;
  const price = priceFor(model);
  const provider = createReplayProvider({
    model,
    answers,
    counter,
    cache: createPromptCacheModel(cacheRulesFor(model.api)),
    price,
    onRequest: (record) => {
      records.push(record);
      entriesAtRequest.push(store.getEntryCount());
    },
  });
  const written: ReplaySummaryRecord[] = [];
  const toolNames = new Set<string>();
  for (const turn of script.turns)
    for (const step of turn.steps)
      for (const block of step.assistant.content) if (block.type === "toolCall") toolNames.add(block.name);

  const store = createInMemorySessionStore({ cwd: "/replay" });
  const session = await createAgentSession({
    store,
    model,
    provider,
    tools: replayTools(toolNames, () => current),
    toolExecution: "sequential",
    settings: {
      contextPolicy: options.policy,
      ...(options.compaction ? { compaction: options.compaction } : {}),
    },
    compaction: options.summarizer
      ? { provider: options.summarizer.provider, model: options.summarizer.model, tokenCounter: counter }
      : {
          provider: null,
          tokenCounter: counter,
          compactor: createReplayCompactor({ model, provider, onSummary: (record) => written.push(record) }),
        },
  });
  let summaryCalls = 0;
  let cacheSharingSummaries = 0;
  let summaryInputTokens = 0;
  let summaryOutputTokens = 0;
  let loops = 0;
  let stoppedRuns = 0;
  session.subscribe((event) => {
    if (event.type === "session_error") {
      if (event.error.code === "COMPACTION_LOOP_GUARD") loops++;
      else stoppedRuns++;
    }
  });
  steer = (index) => {
    const turn = script.turns[index];
    if (turn === undefined) return;
    delivered.add(index);
    session.steer(turn.user.content);
    turnIndex = index;
    stepIndex = 0;
  };
  try {
    for (let index = 0; index < script.turns.length; index++) {
      if (delivered.has(index)) continue;
      turnIndex = index;
      stepIndex = 0;
      await session.prompt(script.turns[index]?.user.content ?? "");
    }
    const contextEdits = store.getEntries().filter((entry) => entry.type === "context_edit").length;
    // Every compaction, the session's (threshold, overflow) and the policy's own (boundary drafts).
    const summaryPrice = options.summarizer ? priceFor(options.summarizer.model) : price;
    let summaryCostUsd = 0;
    const placed: PlacedSummaryCost[] = [];
    const place = (entryIndex: number, costUsd: number) => {
      summaryCostUsd += costUsd;
      placed.push({ entryIndex, costUsd });
    };
    for (const [entryIndex, entry] of store.getEntries().entries()) {
      if (entry.type !== "compaction") continue;
      summaryCalls++;
      const usage = entry.usage;
      if (usage !== undefined && usage.input + usage.cacheRead + usage.cacheWrite + usage.output > 0) {
        // Written by the summary model: what its provider reported, at its price.
        summaryInputTokens += usage.input + usage.cacheRead + usage.cacheWrite;
        summaryOutputTokens += usage.output;
        place(
          entryIndex,
          dollars(usage.input, summaryPrice.input) +
            dollars(usage.cacheRead, summaryPrice.cacheRead) +
            dollars(usage.cacheWrite, summaryPrice.cacheWrite) +
            dollars(usage.output, summaryPrice.output),
        );
        continue;
      }
      // The output is what the summarizer wrote, not what a policy appended to it (no model writes that).
      const index = written.findIndex((record) => record.firstKeptEntryId === entry.firstKeptEntryId);
      const record = index >= 0 ? written.splice(index, 1)[0] : undefined;
      const output = counter.countText(record?.text ?? entry.summary);
      const account = record?.account;
      if (account !== undefined) {
        // A cache-sharing summary: priced as the request it would be sent as (the conversation read
        // from the prompt cache where it is still there), plus its output.
        cacheSharingSummaries++;
        summaryInputTokens += account.contextTokens;
        summaryOutputTokens += output;
        place(
          entryIndex,
          dollars(account.input, price.input) +
            dollars(account.cacheRead, price.cacheRead) +
            dollars(account.cacheWrite, price.cacheWrite) +
            dollars(output, price.output),
        );
        continue;
      }
      // What a summary model reads: the context before it less what the compaction keeps verbatim.
      const kept = store
        .getProjection(entry.id)
        .messages.slice(1)
        .reduce((sum, message) => sum + counter.countMessage(message), 0);
      const input = Math.max(0, entry.tokensBefore - kept);
      summaryInputTokens += input;
      summaryOutputTokens += output;
      place(entryIndex, dollars(input, price.input) + dollars(output, price.output));
    }
    const facts = extractRetentionFacts(script.recorded);
    const retention = measureRetention(facts, visibleText(store.getProjection().messages));
    const sum = (pick: (record: ReplayRequestRecord) => number) =>
      records.reduce((total, r) => total + pick(r), 0);
    const series = buildCostSeries(
      records.map((record, index) => ({
        contextTokens: record.contextTokens,
        costUsd: record.costUsd,
        entriesBefore: entriesAtRequest[index] ?? 0,
      })),
      placed,
    );
    return {
      policy: options.policy.name,
      model: model.id,
      contextWindow: model.contextWindow,
      prompts: script.turns.length,
      requests: records.length,
      inputTokens: sum((r) => r.input),
      cacheReadTokens: sum((r) => r.cacheRead),
      cacheWriteTokens: sum((r) => r.cacheWrite),
      outputTokens: sum((r) => r.output),
      summaryCalls,
      cacheSharingSummaries,
      summarizer: options.summarizer
        ? `${options.summarizer.model.provider}/${options.summarizer.model.id}`
        : "offline",
      summaryInputTokens,
      summaryOutputTokens,
      summaryCostUsd,
      contextEdits,
      costUsd: sum((r) => r.costUsd) + summaryCostUsd,
      peakContextTokens: records.reduce((peak, r) => Math.max(peak, r.contextTokens), 0),
      nearWindowRequests: records.filter((r) => r.contextTokens >= 0.95 * model.contextWindow).length,
      overflows: records.filter((r) => r.overflow).length,
      loops,
      stoppedRuns,
      unmatchedRequests: records.filter((r) => r.unmatched).length,
      skippedMessages: script.skipped,
      retention: retention.score,
      retentionFacts: { total: retention.total, visible: retention.visible, missing: retention.missing },
      series,
    };
  } finally {
    await session.dispose();
    store.close();
  }
}
