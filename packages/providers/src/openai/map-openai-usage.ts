import type { Usage } from "../message";

/** Usage as Chat Completions (`prompt_tokens`) or Responses (`input_tokens`) report it. */
export interface OpenAIUsageReport {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  input_tokens?: number | null;
  output_tokens?: number | null;
  total_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  input_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  output_tokens_details?: { reasoning_tokens?: number | null } | null;
}

/**
 * Converts OpenAI usage to `Usage`. OpenAI counts cached tokens inside the prompt total, so
 * `input` is the prompt minus `cacheRead`; reasoning tokens are part of `output`. OpenAI reports no
 * cache writes. `totalTokens` is the reported total, or the sum when absent.
 */
export function mapOpenAIUsage(report: OpenAIUsageReport): Omit<Usage, "cost"> {
  const prompt = report.prompt_tokens ?? report.input_tokens ?? 0;
  const output = report.completion_tokens ?? report.output_tokens ?? 0;
  const cached =
    report.prompt_tokens_details?.cached_tokens ?? report.input_tokens_details?.cached_tokens ?? 0;
  const reasoning =
    report.completion_tokens_details?.reasoning_tokens ??
    report.output_tokens_details?.reasoning_tokens ??
    undefined;
  const usage: Omit<Usage, "cost"> = {
    input: Math.max(0, prompt - cached),
    output,
    cacheRead: cached,
    cacheWrite: 0,
    totalTokens: report.total_tokens ?? prompt + output,
  };
  if (typeof reasoning === "number") usage.reasoning = reasoning;
  return usage;
}
