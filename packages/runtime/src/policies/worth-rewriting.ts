import type { MaskEdit } from "./plan-mask-edits";

/** Prompt-cache price ratios (to the input price) the cache-aware policy weighs: Anthropic's. */
const CACHE_READ_RATIO = 0.1;
const CACHE_WRITE_RATIO = 1.25;

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
