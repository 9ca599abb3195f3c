import type { AgentMessage } from "@arbor/agent-loop";
import { EXTENSION_API_VERSION, type ExtensionDefinition } from "@arbor/extensions";
import type { SessionProjection } from "@arbor/session-store";
import type { BoundaryResult, SessionBoundaryDraft, TurnEndEvent } from "../events/boundary-events";
import type { RuntimeExtensionApi } from "../extensions/runtime-extension-api";
import {
  type ContextPolicyName,
  type ContextPolicySettings,
  type ResolvedContextPolicySettings,
  resolveContextPolicySettings,
} from "./context-policy-settings";
import { planCacheAnchor } from "./plan-cache-anchor";
import { isMaskable, type MaskEdit, planMaskEdits } from "./plan-mask-edits";

/** Prompt-cache price ratios (to the input price) the cache-aware policy weighs: Anthropic's. */
const CACHE_READ_RATIO = 0.1;
const CACHE_WRITE_RATIO = 1.25;
/** A summary of the policy's own is worth it only when it removes at least this share of the threshold. */
const MIN_SUMMARY_SHARE = 0.2;
/** Summaries through a model may take long: the policy's boundary handler gets this long. */
const TURN_END_TIMEOUT_MS = 600_000;

/** What the policy remembers between requests (reset by every compaction). */
interface PolicyState {
  /** The anchor of the latest request, and the share of its messages' tokens up to it. */
  anchor: number | undefined;
  anchoredShare: number;
  /** True after a mask batch: the next request keeps the previous anchor (its cache entry is intact). */
  keepAnchor: boolean;
}

/**
 * The cache-aware rule: the next request after an edit writes again everything after the cache's
 * stable prefix (the whole prompt without a cache anchor; what follows the anchor with one), once,
 * at the write premium; the saving is read `horizonRequests` times at the cache-read price. True when
 * the saving is worth more. `rewrittenTokens` is the context after the stable prefix, before the edits.
 */
export function worthRewriting(
  rewrittenTokens: number,
  edits: readonly MaskEdit[],
  horizonRequests: number,
): boolean {
  const saving = edits.reduce((sum, edit) => sum + edit.savedTokens, 0);
  const rewritten = Math.max(0, rewrittenTokens - saving);
  return saving * horizonRequests * CACHE_READ_RATIO > rewritten * (CACHE_WRITE_RATIO - CACHE_READ_RATIO);
}

/** The session's compaction settings with the policy's `keepRecentTokens` when it sets one. */
function policyCompactionSettings(api: RuntimeExtensionApi, options: ResolvedContextPolicySettings) {
  const settings = api.session.getCompactionSettings();
  return options.keepRecentTokens > 0
    ? { ...settings, keepRecentTokens: options.keepRecentTokens }
    : settings;
}

/** A compaction draft summarizing the branch now, or undefined when too little would be summarized. */
async function summaryDraft(
  api: RuntimeExtensionApi,
  options: ResolvedContextPolicySettings,
  threshold: number,
  signal: AbortSignal,
): Promise<SessionBoundaryDraft | undefined> {
  const preparation = api.compaction.prepareCompaction(
    api.session.view.getBranch(),
    policyCompactionSettings(api, options),
  );
  if (preparation === undefined) return undefined;
  const summarized = [...preparation.messagesToSummarize, ...preparation.turnPrefixMessages].reduce(
    (sum, message) => sum + api.compaction.estimateTokens(message),
    0,
  );
  if (summarized < MIN_SUMMARY_SHARE * threshold) return undefined;
  const summary = await api.session.summarize(preparation, { signal });
  return {
    type: "compaction",
    summary: summary.summary,
    firstKeptEntryId: summary.firstKeptEntryId,
    details: summary.details,
    ...(summary.usage === undefined ? {} : { usage: summary.usage }),
  };
}

/** The policy's `turn_end`: mask drafts, or (cache-aware) a summary draft when masking is not enough. */
async function atTurnEnd(
  api: RuntimeExtensionApi,
  options: ResolvedContextPolicySettings,
  state: PolicyState,
  event: TurnEndEvent,
  signal: AbortSignal,
): Promise<BoundaryResult | undefined> {
  const usage = api.session.getContextUsage();
  if (usage === undefined || usage.tokens === null) return undefined;
  if (usage.tokens < options.triggerFraction * usage.threshold) return undefined;
  const projection = {
    entries: event.context.contextEntries,
    messages: event.context.contextMessages,
  } as unknown as SessionProjection;
  const edits = planMaskEdits(projection, {
    countTokens: api.compaction.estimateTokens,
    minToolResultTokens: options.minToolResultTokens,
    protectRecentTokens: Math.min(options.protectRecentTokens, 0.25 * usage.threshold),
    wantedSavingTokens: Number.POSITIVE_INFINITY,
    maskToolArguments: options.name === "cache-aware",
  });
  const saving = edits.reduce((sum, edit) => sum + edit.savedTokens, 0);
  if (usage.tokens - saving >= options.summaryFraction * usage.threshold) {
    const draft = await summaryDraft(api, options, usage.threshold, signal);
    if (draft !== undefined) {
      Object.assign(state, { anchor: undefined, anchoredShare: 0, keepAnchor: false });
      return { entries: [...event.entries, draft] };
    }
  }
  if (edits.length === 0) return undefined;
  if (options.name === "cache-aware") {
    const rewritten = usage.tokens * (options.cacheAnchor ? 1 - state.anchoredShare : 1);
    if (!worthRewriting(rewritten, edits, options.horizonRequests)) return undefined;
  }
  state.keepAnchor = true;
  const drafts = edits.map(
    (edit): SessionBoundaryDraft => ({
      type: "context_edit",
      targetId: edit.targetId,
      replacement: edit.replacement,
    }),
  );
  return { entries: [...event.entries, ...drafts] };
}

/**
 * The extension of a context policy (see {@link ContextPolicySettings}):
 * - `pi`: registers nothing (the session's threshold summaries are the whole policy);
 * - `mask`: after every turn whose context passed `triggerFraction` of the compaction threshold,
 *   replaces every tool output of `minToolResultTokens` or more outside the newest
 *   `protectRecentTokens` by a one-line placeholder (context edits: the outputs stay in the session
 *   file); summaries still happen at the threshold when masking was not enough;
 * - `cache-aware`: like `mask`, plus the large string arguments of old tool calls (an `edit`'s texts,
 *   a `write`'s content; `path`, `file_path` and `command` stay). It sends a `cacheAnchor` with each
 *   request (the last message before the first one it may still mask), writes its masks only when
 *   they are worth the cache rewrite of what follows that anchor ({@link worthRewriting}), in one
 *   batch, and summarizes on its own (a `compaction` draft, with the session's summarizer) once what
 *   masking leaves passes `summaryFraction` of the threshold.
 *
 * Built on the public extension API only: drafts returned from the `turn_end` boundary,
 * `before_provider_request` for the anchor, `api.session.summarize` for its summaries; a third-party
 * extension could be written the same way. `createAgentSession` installs it first when
 * `settings.contextPolicy` names one.
 */
export function contextPolicyExtension(
  setting: ContextPolicySettings | ContextPolicyName,
): ExtensionDefinition<RuntimeExtensionApi> {
  const options = resolveContextPolicySettings(setting);
  return {
    apiVersion: EXTENSION_API_VERSION,
    name: `context-policy:${options.name}`,
    setup(api) {
      if (options.name === "pi") return;
      const state: PolicyState = { anchor: undefined, anchoredShare: 0, keepAnchor: false };
      const reset = () => {
        state.anchor = undefined;
        state.anchoredShare = 0;
        state.keepAnchor = false;
      };
      api.on("turn_end", (event, context) => atTurnEnd(api, options, state, event, context.signal), {
        timeoutMs: TURN_END_TIMEOUT_MS,
      });
      api.on("session_compact", reset);
      if (options.keepRecentTokens > 0) {
        // The session's own compactions keep what the policy's keep (a shorter prefix to rewrite).
        api.on(
          "session_before_compact",
          async (event, context) => {
            if (event.customInstructions !== undefined) return undefined;
            const preparation = api.compaction.prepareCompaction(
              event.branchEntries,
              policyCompactionSettings(api, options),
            );
            if (preparation === undefined) return undefined;
            return { compaction: await api.session.summarize(preparation, { signal: context.signal }) };
          },
          { timeoutMs: TURN_END_TIMEOUT_MS },
        );
      }
      if (!options.cacheAnchor) return;
      const editable = (message: AgentMessage) =>
        isMaskable(message, {
          countTokens: api.compaction.estimateTokens,
          minToolResultTokens: options.minToolResultTokens,
          maskToolArguments: options.name === "cache-aware",
        });
      api.on("before_provider_request", (event) => {
        const { messages } = event.request;
        if (messages.length < 2) return undefined;
        const anchor =
          state.keepAnchor && state.anchor !== undefined ? state.anchor : planCacheAnchor(messages, editable);
        state.keepAnchor = false;
        state.anchor = anchor;
        if (anchor === undefined) {
          state.anchoredShare = 0;
          return undefined;
        }
        let before = 0;
        let total = 0;
        messages.forEach((message, index) => {
          const tokens = api.compaction.estimateTokens(message as AgentMessage);
          total += tokens;
          if (index <= anchor) before += tokens;
        });
        state.anchoredShare = total > 0 ? before / total : 0;
        return { request: { ...event.request, cacheAnchor: anchor } };
      });
    },
  };
}
