import type { Usage } from "../message";

/** The usage fields Anthropic reports in `message_start` and `message_delta`. */
export interface AnthropicUsageReport {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_creation?: { ephemeral_1h_input_tokens?: number | null } | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

/**
 * Reads the counts present in one report (absent or null fields are left out, so a later
 * `message_delta` only overrides what it reports). Anthropic's `input_tokens` already excludes
 * cached tokens, matching `Usage.input`.
 */
export function mapAnthropicUsage(
  report: AnthropicUsageReport | null | undefined,
): Partial<Omit<Usage, "cost">> {
  const usage: Partial<Omit<Usage, "cost">> = {};
  if (!report) return usage;
  if (typeof report.input_tokens === "number") usage.input = report.input_tokens;
  if (typeof report.output_tokens === "number") usage.output = report.output_tokens;
  if (typeof report.cache_read_input_tokens === "number") usage.cacheRead = report.cache_read_input_tokens;
  if (typeof report.cache_creation_input_tokens === "number")
    usage.cacheWrite = report.cache_creation_input_tokens;
  const oneHour = report.cache_creation?.ephemeral_1h_input_tokens;
  if (typeof oneHour === "number") usage.cacheWrite1h = oneHour;
  const thinking = report.output_tokens_details?.thinking_tokens;
  if (typeof thinking === "number") usage.reasoning = thinking;
  return usage;
}
