import type { AgentMessage } from "@arbor/agent-loop";
import type { CompactionPreparation } from "@arbor/compaction";
import { EXTENSION_API_VERSION, type ExtensionDefinition } from "@arbor/extensions";
import type { Message, ProviderRequest } from "@arbor/providers";
import type { SessionEntry, SessionProjection } from "@arbor/session-store";
import type { BoundaryResult, SessionBoundaryDraft, TurnEndEvent } from "../events/boundary-events";
import type { CustomCompaction } from "../events/runtime-hooks";
import type { RuntimeExtensionApi } from "../extensions/runtime-extension-api";
import {
  type ContextPolicyName,
  type ContextPolicySettings,
  type ResolvedContextPolicySettings,
  resolveContextPolicySettings,
} from "./context-policy-settings";
import { planCacheAnchor } from "./plan-cache-anchor";
import { isMaskable, planMaskEdits } from "./plan-mask-edits";
import { policySummaryConversation } from "./policy-summary-conversation";
import { userPromptsSection } from "./user-prompts-section";
import { worthRewriting } from "./worth-rewriting";

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
  /** The latest request the loop sent (as the policy left it), for cache-sharing summaries. */
  lastRequest: ProviderRequest | undefined;
  /** What came back for `lastRequest` (the turn's answer and tool results), set at `turn_end`. */
  tail: Message[] | undefined;
  /** True while the policy's own summary request is on its way (not a loop request). */
  summarizing: boolean;
}

/** The session's compaction settings with the policy's `keepRecentTokens` when it sets one. */
function policyCompactionSettings(api: RuntimeExtensionApi, options: ResolvedContextPolicySettings) {
  const settings = api.session.getCompactionSettings();
  // Never more than the session keeps: its figure is fitted to small windows.
  return options.keepRecentTokens > 0
    ? { ...settings, keepRecentTokens: Math.min(options.keepRecentTokens, settings.keepRecentTokens) }
    : settings;
}

/** Share of the compaction threshold the user's prompts may take in a summary (small windows). */
const MAX_PROMPTS_SHARE = 0.05;

/**
 * The preparation of a compaction with the policy's `keepRecentTokens`, or undefined when there is
 * nothing to compact. The file lists of the previous compaction are carried over when the policy wrote
 * it: the session reads them only from its own compactions (pi's rule for `fromHook` ones).
 */
function preparePolicyCompaction(
  api: RuntimeExtensionApi,
  options: ResolvedContextPolicySettings,
  branch: readonly SessionEntry[],
): CompactionPreparation | undefined {
  const preparation = api.compaction.prepareCompaction(branch, policyCompactionSettings(api, options));
  if (preparation === undefined) return undefined;
  const previous = branch.findLast((entry) => entry.type === "compaction");
  if (previous?.type === "compaction" && previous.fromHook === true) {
    const details = previous.details as { readFiles?: unknown; modifiedFiles?: unknown } | undefined;
    for (const file of Array.isArray(details?.readFiles) ? details.readFiles : [])
      if (typeof file === "string") preparation.fileOps.read.add(file);
    for (const file of Array.isArray(details?.modifiedFiles) ? details.modifiedFiles : [])
      if (typeof file === "string") preparation.fileOps.edited.add(file);
  }
  return preparation;
}

/** The session's summary of `preparation`, followed by the user's summarized prompts (`keepUserPromptTokens`). */
async function policySummary(
  api: RuntimeExtensionApi,
  options: ResolvedContextPolicySettings,
  state: PolicyState,
  preparation: CompactionPreparation,
  branch: readonly SessionEntry[],
  signal: AbortSignal,
): Promise<CustomCompaction> {
  const conversation = options.shareSummaryCache
    ? policySummaryConversation(state.lastRequest, state.tail)
    : undefined;
  state.summarizing = true;
  let summary: CustomCompaction;
  try {
    summary = await api.session.summarize(preparation, {
      signal,
      ...(conversation === undefined ? {} : { conversation }),
    });
  } finally {
    state.summarizing = false;
  }
  const settings = api.session.getCompactionSettings();
  const threshold = api.session.getModel().contextWindow - settings.reserveTokens;
  const budget = Math.min(options.keepUserPromptTokens, Math.floor(MAX_PROMPTS_SHARE * threshold));
  const prompts = userPromptsSection(branch, summary.firstKeptEntryId, 4 * budget);
  return { ...summary, summary: summary.summary + prompts };
}

/** A compaction draft summarizing the branch now, or undefined when too little would be summarized. */
async function summaryDraft(
  api: RuntimeExtensionApi,
  options: ResolvedContextPolicySettings,
  state: PolicyState,
  threshold: number,
  signal: AbortSignal,
): Promise<SessionBoundaryDraft | undefined> {
  const preparation = preparePolicyCompaction(api, options, api.session.view.getBranch());
  if (preparation === undefined) return undefined;
  const summarized = [...preparation.messagesToSummarize, ...preparation.turnPrefixMessages].reduce(
    (sum, message) => sum + api.compaction.estimateTokens(message),
    0,
  );
  if (summarized < MIN_SUMMARY_SHARE * threshold) return undefined;
  const summary = await policySummary(api, options, state, preparation, api.session.view.getBranch(), signal);
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
  state.tail = state.lastRequest === undefined ? undefined : [event.message, ...event.toolResults];
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
    const draft = await summaryDraft(api, options, state, usage.threshold, signal);
    if (draft !== undefined) {
      Object.assign(state, {
        anchor: undefined,
        anchoredShare: 0,
        keepAnchor: false,
        lastRequest: undefined,
        tail: undefined,
      });
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
 *   masking leaves passes `summaryFraction` of the threshold. Its summaries, and the session's own
 *   ones made without instructions (through `session_before_compact`), keep `keepRecentTokens`, carry
 *   the file lists of its earlier summaries and end with the user's summarized prompts; with
 *   `shareSummaryCache` they are asked for as the last request's conversation (its answer and tool
 *   results appended) plus one instruction, so that a prompt cache reads the conversation.
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
      const state: PolicyState = {
        anchor: undefined,
        anchoredShare: 0,
        keepAnchor: false,
        lastRequest: undefined,
        tail: undefined,
        summarizing: false,
      };
      const reset = () => {
        state.anchor = undefined;
        state.anchoredShare = 0;
        state.keepAnchor = false;
        state.lastRequest = undefined;
        state.tail = undefined;
      };
      api.on("turn_end", (event, context) => atTurnEnd(api, options, state, event, context.signal), {
        timeoutMs: TURN_END_TIMEOUT_MS,
      });
      api.on("session_compact", reset);
      if (options.name === "cache-aware") {
        // The session's own compactions are written like the policy's: its keepRecentTokens, the user's
        // prompts, the file lists of the policy's earlier summaries.
        api.on(
          "session_before_compact",
          async (event, context) => {
            if (event.customInstructions !== undefined) return undefined;
            const previous = event.branchEntries.findLast((entry) => entry.type === "compaction");
            const ours = previous?.type === "compaction" && previous.fromHook === true;
            const shaped = options.keepRecentTokens > 0 || options.keepUserPromptTokens > 0;
            if (!shaped && !ours) return undefined;
            const preparation = preparePolicyCompaction(api, options, event.branchEntries);
            if (preparation === undefined) return undefined;
            return {
              compaction: await policySummary(
                api,
                options,
                state,
                preparation,
                event.branchEntries,
                context.signal,
              ),
            };
          },
          { timeoutMs: TURN_END_TIMEOUT_MS },
        );
      }
      if (!options.cacheAnchor && !options.shareSummaryCache) return;
      const editable = (message: AgentMessage) =>
        isMaskable(message, {
          countTokens: api.compaction.estimateTokens,
          minToolResultTokens: options.minToolResultTokens,
          maskToolArguments: options.name === "cache-aware",
        });
      api.on("before_provider_request", (event) => {
        // The policy's own summary request keeps the shape the summarizer gave it.
        if (state.summarizing) return undefined;
        const request = options.cacheAnchor ? anchored(event.request) : event.request;
        state.lastRequest = request;
        state.tail = undefined;
        return request === event.request ? undefined : { request };
      });
      /** The request with the policy's cache anchor (the same request when it sends none). */
      function anchored(request: ProviderRequest): ProviderRequest {
        const { messages } = request;
        if (messages.length < 2) return request;
        const anchor =
          state.keepAnchor && state.anchor !== undefined ? state.anchor : planCacheAnchor(messages, editable);
        state.keepAnchor = false;
        state.anchor = anchor;
        if (anchor === undefined) {
          state.anchoredShare = 0;
          return request;
        }
        let before = 0;
        let total = 0;
        messages.forEach((message, index) => {
          const tokens = api.compaction.estimateTokens(message as AgentMessage);
          total += tokens;
          if (index <= anchor) before += tokens;
        });
        state.anchoredShare = total > 0 ? before / total : 0;
        return { ...request, cacheAnchor: anchor };
      }
    },
  };
}
