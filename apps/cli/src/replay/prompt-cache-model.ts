import type { PromptCacheRules } from "./price-table";

/** One block of a request: a prefix key (a hash of everything up to and including it) and its tokens. */
export interface CacheBlock {
  /** Identifies the whole prefix that ends with this block (equal keys: equal prefixes). */
  prefixKey: string;
  tokens: number;
}

/** One request as the cache sees it. */
export interface CacheRequest {
  blocks: readonly CacheBlock[];
  /** Indexes of the blocks that carry a cache breakpoint (explicit caching only). */
  breakpoints: readonly number[];
  /** When the request was sent (ms since the epoch). */
  time: number;
}

/** How one request's input tokens split. `input + cacheRead + cacheWrite` is the whole prompt. */
export interface CacheAccount {
  /** Tokens billed at the plain input price. */
  input: number;
  cacheRead: number;
  cacheWrite: number;
}

/** A prompt cache that accounts requests in the order they are sent. */
export interface PromptCacheModel {
  account(request: CacheRequest): CacheAccount;
}

/**
 * A model of a provider's prompt cache (see `price-table.ts` for the rules and their source).
 *
 * Explicit (Anthropic): an entry exists for each prefix that ended at a breakpoint of an earlier
 * request and was used within `ttlMs`. A request reads the longest such prefix found at a block
 * boundary at most `lookbackBlocks` before one of its breakpoints (refreshing it), writes the rest
 * up to its last breakpoint, and pays the plain price for what follows the last breakpoint. A prefix
 * under `minCacheableTokens` is neither read nor written.
 *
 * Automatic (OpenAI): every request of `minCacheableTokens` or more leaves its prefixes in the
 * cache; the next one reads the longest common prefix still alive, rounded down to
 * `granularityTokens`; nothing is billed as a write (the rest is plain input).
 *
 * Stateful; requests must come in time order. Never throws.
 */
export function createPromptCacheModel(rules: PromptCacheRules): PromptCacheModel {
  /** prefix key → expiry time. */
  const entries = new Map<string, number>();
  const alive = (key: string, time: number) => {
    const expiry = entries.get(key);
    return expiry !== undefined && expiry > time;
  };

  const accountExplicit = (request: CacheRequest): CacheAccount => {
    const { blocks, time } = request;
    const total = blocks.reduce((sum, block) => sum + block.tokens, 0);
    const breakpoints = [...request.breakpoints]
      .filter((index) => index < blocks.length)
      .sort((a, b) => a - b);
    const last = breakpoints.at(-1);
    if (last === undefined) return { input: total, cacheRead: 0, cacheWrite: 0 };
    const prefixTokens: number[] = [];
    let running = 0;
    for (const block of blocks) {
      running += block.tokens;
      prefixTokens.push(running);
    }
    let hit = -1;
    for (const breakpoint of breakpoints) {
      const lowest = Math.max(0, breakpoint - rules.lookbackBlocks);
      for (let index = breakpoint; index >= lowest && index > hit; index--) {
        const key = blocks[index]?.prefixKey;
        if (key !== undefined && alive(key, time)) {
          hit = index;
          break;
        }
      }
    }
    const cachedTokens = hit >= 0 ? (prefixTokens[hit] ?? 0) : 0;
    const upToLast = prefixTokens[last] ?? 0;
    if (hit >= 0) entries.set(blocks[hit]?.prefixKey as string, time + rules.ttlMs);
    let written = 0;
    for (const breakpoint of breakpoints) {
      const tokens = prefixTokens[breakpoint] ?? 0;
      if (tokens < rules.minCacheableTokens) continue;
      entries.set(blocks[breakpoint]?.prefixKey as string, time + rules.ttlMs);
      written = tokens;
    }
    const cacheWrite = Math.max(0, written - cachedTokens);
    const cacheRead = Math.min(cachedTokens, upToLast);
    return { input: total - cacheRead - cacheWrite, cacheRead, cacheWrite };
  };

  const accountAutomatic = (request: CacheRequest): CacheAccount => {
    const { blocks, time } = request;
    const total = blocks.reduce((sum, block) => sum + block.tokens, 0);
    let cached = 0;
    let running = 0;
    for (const block of blocks) {
      running += block.tokens;
      if (!alive(block.prefixKey, time)) break;
      cached = running;
    }
    let cacheRead = cached >= rules.minCacheableTokens ? cached - (cached % rules.granularityTokens) : 0;
    cacheRead = Math.min(cacheRead, total);
    if (total >= rules.minCacheableTokens) {
      for (const block of blocks) entries.set(block.prefixKey, time + rules.ttlMs);
    }
    return { input: total - cacheRead, cacheRead, cacheWrite: 0 };
  };

  return {
    account: (request) => (rules.kind === "explicit" ? accountExplicit(request) : accountAutomatic(request)),
  };
}
