/** The context policies `settings.contextPolicy.name` selects. */
export type ContextPolicyName = "pi" | "mask" | "cache-aware";

/** Every context policy name, in the order the documentation lists them. */
export const CONTEXT_POLICY_NAMES: readonly ContextPolicyName[] = Object.freeze([
  "pi",
  "mask",
  "cache-aware",
]);

/**
 * `settings.contextPolicy`: which context policy the session runs and its knobs. Every knob is
 * optional (see {@link resolveContextPolicySettings} for the defaults). Token figures are the
 * session's token counter's (`compaction.tokenCounter`, chars/4 by default).
 */
export interface ContextPolicySettings {
  /** `pi`: threshold summaries only; `mask`: hide old large tool outputs first; `cache-aware`: mask in batches when it pays. */
  name: ContextPolicyName;
  /**
   * Masking starts once the context passes this fraction of the compaction threshold. Default 0.5
   * (`mask`), 0.3 (`cache-aware`, which then waits until masking pays).
   */
  triggerFraction?: number;
  /** Tool outputs smaller than this many tokens are never masked. Default 500 (`mask`), 200 (`cache-aware`). */
  minToolResultTokens?: number;
  /** The newest this-many tokens of the context are never masked (at most a quarter of the threshold). Default 10000 (`mask`), 3000 (`cache-aware`). */
  protectRecentTokens?: number;
  /**
   * cache-aware: requests over which a saving is counted against the cache rewrite it causes
   * (saving × horizon × read price ≥ rewritten tokens × (write − read price)). Default 20.
   */
  horizonRequests?: number;
  /**
   * cache-aware: once what masking leaves passes this fraction of the compaction threshold, the policy
   * summarizes at once (a `compaction` draft written with the session's summarizer), earlier than the
   * threshold. 1 turns it off. Default 0.3.
   */
  summaryFraction?: number;
  /**
   * Send `cacheAnchor` with each request (the last message before the first one the policy may still
   * mask), so that a mask batch rewrites the prompt cache only after it. Default true (`cache-aware`),
   * false (`mask`).
   */
  cacheAnchor?: boolean;
  /**
   * cache-aware: what its summaries keep verbatim, in tokens, for its own and (through
   * `session_before_compact`) for the session's compactions made without instructions. 0 keeps the
   * session's `compaction.keepRecentTokens` (never more than it: the session fits it to small
   * windows). Default 4000 (`cache-aware`), 0 (`mask`).
   */
  keepRecentTokens?: number;
  /**
   * cache-aware: its summaries end with the user's summarized prompts, verbatim (newest first, each
   * cut at 1500 characters), up to this many tokens (chars/4), so that ids, numbers and constraints
   * the user gave survive summaries of summaries; at most 5% of the compaction threshold. 0 turns it
   * off. Default 2000.
   */
  keepUserPromptTokens?: number;
  /**
   * cache-aware: ask for its summaries as the conversation itself (the last request's system prompt,
   * tools and messages, then one instruction) when the summary model is the session's, so that a
   * provider with prompt caching reads the conversation from its cache instead of a fresh transcript
   * at the full input price (see `api.session.summarize`'s `conversation`). The summary's content
   * rules are the same. Default true (`cache-aware`), false (`mask`; `pi` never does).
   */
  shareSummaryCache?: boolean;
}

/** cache-aware's default `summaryFraction`. */
const SUMMARY_DEFAULT = 0.3;

/** {@link ContextPolicySettings} with every default filled. */
export type ResolvedContextPolicySettings = Required<ContextPolicySettings>;

/**
 * Fills the defaults of a `contextPolicy` setting; a bare name is accepted. Undefined → the `pi`
 * policy. Pure; never throws (the settings schema rejects bad values when the file is read).
 */
export function resolveContextPolicySettings(
  setting: ContextPolicySettings | ContextPolicyName | undefined,
): ResolvedContextPolicySettings {
  const given: ContextPolicySettings =
    typeof setting === "string" ? { name: setting } : (setting ?? { name: "pi" });
  return {
    name: given.name,
    triggerFraction: given.triggerFraction ?? (given.name === "cache-aware" ? 0.3 : 0.5),
    minToolResultTokens: given.minToolResultTokens ?? (given.name === "cache-aware" ? 200 : 500),
    protectRecentTokens: given.protectRecentTokens ?? (given.name === "cache-aware" ? 3000 : 10_000),
    horizonRequests: given.horizonRequests ?? 20,
    summaryFraction: given.summaryFraction ?? (given.name === "cache-aware" ? SUMMARY_DEFAULT : 1),
    cacheAnchor: given.cacheAnchor ?? given.name === "cache-aware",
    keepRecentTokens: given.keepRecentTokens ?? (given.name === "cache-aware" ? 4000 : 0),
    keepUserPromptTokens: given.keepUserPromptTokens ?? (given.name === "cache-aware" ? 2000 : 0),
    shareSummaryCache: given.shareSummaryCache ?? given.name === "cache-aware",
  };
}
