import type { Usage } from "@arbor/providers";

/**
 * Context size a response's usage stands for: `usage.totalTokens`, or when that is 0 (unknown) the sum
 * `input + output + cacheRead + cacheWrite`. Equal to pi 1.6.0. Pure.
 */
export function calculateContextTokens(usage: Usage): number {
  return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}
