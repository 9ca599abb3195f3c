import type { CompactionSettings } from "@arbor/compaction";

/** Compaction settings as a session applies them to its model's context window. */
export interface EffectiveCompactionSettings extends CompactionSettings {
  /**
   * Present when the configured values did not fit the model's context window and were scaled down
   * (see {@link fitCompactionSettings}): what was configured, and the window.
   */
  scaledFrom?: { reserveTokens: number; keepRecentTokens: number; contextWindow: number };
}

/** Configured values taking more than this share of the window are scaled down. */
const FIT_SHARE = 0.75;
/** ... to at most this share of the window each. */
const SCALED_SHARE = 0.25;

/**
 * Fits configured compaction settings to a context window so that automatic compaction still works
 * with a small model. The threshold is `contextWindow - reserveTokens`, and a compaction keeps about
 * `keepRecentTokens`: when the two together exceed three quarters of the window (pi's defaults,
 * 16384 + 20000, do below 48,512 tokens; with an 8k model the threshold would even be negative and
 * compaction would never fire), each is capped at a quarter of the window, rounded down. The
 * threshold is then at least half the window and what a compaction keeps fits well under it.
 * Values that fit, and an unknown window (0 or less), are returned unchanged. Pure; never throws.
 */
export function fitCompactionSettings(
  settings: CompactionSettings,
  contextWindow: number,
): EffectiveCompactionSettings {
  const { reserveTokens, keepRecentTokens } = settings;
  if (!(contextWindow > 0) || reserveTokens + keepRecentTokens <= contextWindow * FIT_SHARE) {
    return { ...settings };
  }
  const cap = Math.floor(contextWindow * SCALED_SHARE);
  return {
    ...settings,
    reserveTokens: Math.min(reserveTokens, cap),
    keepRecentTokens: Math.min(keepRecentTokens, cap),
    scaledFrom: { reserveTokens, keepRecentTokens, contextWindow },
  };
}

/**
 * The token budget kept free when summarizing an abandoned branch (`branchSummary.reserveTokens`),
 * fitted like {@link fitCompactionSettings}: above three quarters of the window it is capped at a
 * quarter, so that the summary's input budget (`contextWindow - reserveTokens`) stays positive.
 */
export function fitBranchSummaryReserve(reserveTokens: number, contextWindow: number): number {
  if (!(contextWindow > 0) || reserveTokens <= contextWindow * FIT_SHARE) return reserveTokens;
  return Math.min(reserveTokens, Math.floor(contextWindow * SCALED_SHARE));
}
