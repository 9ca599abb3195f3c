/**
 * Prices and prompt-cache rules used by `arbor replay`, in one place, with their source and date.
 *
 * Prices are US dollars per million tokens. They are copied from the providers' public price pages
 * on the date below (the same figures as the built-in model catalogue of `@arbor/providers`), and
 * the cache rules from the providers' prompt-caching documentation:
 *
 * - Anthropic (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching and
 *   https://www.anthropic.com/pricing, read 2026-12-01): a cache write costs 1.25x the input price
 *   (5-minute lifetime), a cache read 0.1x; the cache is keyed by the exact prefix up to a
 *   `cache_control` breakpoint; a hit refreshes the 5-minute lifetime; the lookup checks earlier
 *   block boundaries up to 20 blocks before a breakpoint; prefixes shorter than 1024 tokens
 *   (Sonnet, Opus 4/4.1) are not cached.
 * - OpenAI (https://platform.openai.com/docs/guides/prompt-caching and
 *   https://openai.com/api/pricing, read 2026-12-01): caching is automatic for prompts of 1024 tokens
 *   or more, hits are counted in 128-token steps of the longest cached prefix, there is no write
 *   surcharge, cached input is billed at the model's cached-input price (a 50% to 90% discount), and
 *   an unused prefix is evicted after 5 to 10 minutes of inactivity (5 is used here).
 */
export const PRICE_TABLE_SOURCE = Object.freeze({
  date: "2026-12-01",
  anthropic:
    "https://www.anthropic.com/pricing; https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching",
  openai: "https://openai.com/api/pricing; https://platform.openai.com/docs/guides/prompt-caching",
});

/** How a provider caches prompt prefixes. */
export interface PromptCacheRules {
  /** `explicit`: Anthropic's breakpoints; `automatic`: OpenAI's longest-prefix caching. */
  kind: "explicit" | "automatic";
  /** Lifetime of an unused cache entry, in milliseconds (a hit refreshes it). */
  ttlMs: number;
  /** Shortest prefix that is cached, in tokens. */
  minCacheableTokens: number;
  /** Anthropic: block boundaries checked before a breakpoint. */
  lookbackBlocks: number;
  /** OpenAI: cached tokens are counted in steps of this many tokens. */
  granularityTokens: number;
}

/** Anthropic's rules (5-minute cache). */
export const ANTHROPIC_CACHE_RULES: PromptCacheRules = Object.freeze({
  kind: "explicit",
  ttlMs: 5 * 60_000,
  minCacheableTokens: 1024,
  lookbackBlocks: 20,
  granularityTokens: 1,
});

/** OpenAI's rules (automatic in-memory cache). */
export const OPENAI_CACHE_RULES: PromptCacheRules = Object.freeze({
  kind: "automatic",
  ttlMs: 5 * 60_000,
  minCacheableTokens: 1024,
  lookbackBlocks: Number.POSITIVE_INFINITY,
  granularityTokens: 128,
});

/** Prices of one model in dollars per million tokens. */
export interface ReplayPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/**
 * The prices replay uses, by model id (the catalogue's ids). Anthropic: write = 1.25x input, read =
 * 0.1x input. OpenAI: no write surcharge (write = input), read = the published cached-input price.
 */
export const REPLAY_PRICES: Readonly<Record<string, ReplayPrice>> = Object.freeze({
  "claude-opus-4-5": { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  "claude-sonnet-4-5": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  "claude-sonnet-4-6": { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  "claude-haiku-4-5": { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  "gpt-4.1": { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 2 },
  "gpt-4o": { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 2.5 },
  "gpt-5": { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 1.25 },
  "gpt-5-mini": { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0.25 },
});

/** The cache rules of a model's API (`anthropic-messages` → Anthropic's, anything else OpenAI's). */
export function cacheRulesFor(api: string): PromptCacheRules {
  return api === "anthropic-messages" ? ANTHROPIC_CACHE_RULES : OPENAI_CACHE_RULES;
}

/**
 * The price of a model: the table's row, else the model's own catalogue cost (with Anthropic's
 * 1.25x / 0.1x rule or OpenAI's write = input when the catalogue has no write price).
 */
export function priceFor(model: {
  id: string;
  api: string;
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
}): ReplayPrice {
  const row = REPLAY_PRICES[model.id];
  if (row !== undefined) return row;
  const { input, output, cacheRead, cacheWrite } = model.cost;
  if (model.api === "anthropic-messages") {
    return { input, output, cacheRead: cacheRead || input * 0.1, cacheWrite: cacheWrite || input * 1.25 };
  }
  return { input, output, cacheRead: cacheRead || input, cacheWrite: input };
}

/** Dollars for a number of tokens at a per-million price. */
export function dollars(tokens: number, pricePerMillion: number): number {
  return (tokens * pricePerMillion) / 1_000_000;
}
