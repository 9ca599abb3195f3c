import type { Model } from "../model/model";
import type { ReasoningLevel } from "../model/reasoning-level";

/** `ModelCompat` switches for the OpenAI adapters with every default applied. */
export interface OpenAICompat {
  systemRole: "system" | "developer";
  maxTokensField: "max_tokens" | "max_completion_tokens";
  supportsReasoningEffort: boolean;
  supportsUsageInStreaming: boolean;
  supportsPromptCaching: boolean;
  supportsTemperature: boolean;
}

/**
 * Applies the defaults of `ModelCompat`: the official `openai` provider gets the official API's
 * behaviour (developer role for reasoning models, `max_completion_tokens`, reasoning effort,
 * prompt cache keys); any other provider the conservative subset that OpenAI-compatible servers
 * (Ollama, vLLM, llama.cpp server, LM Studio) accept. Temperature is off for official reasoning
 * models, which reject it.
 */
export function resolveOpenAICompat(model: Model): OpenAICompat {
  const official = model.provider === "openai";
  const compat = model.compat ?? {};
  return {
    systemRole: compat.systemRole ?? (official && model.reasoning ? "developer" : "system"),
    maxTokensField: compat.maxTokensField ?? (official ? "max_completion_tokens" : "max_tokens"),
    supportsReasoningEffort: compat.supportsReasoningEffort ?? official,
    supportsUsageInStreaming: compat.supportsUsageInStreaming ?? true,
    supportsPromptCaching: compat.supportsPromptCaching ?? official,
    supportsTemperature: compat.supportsTemperature ?? !(official && model.reasoning),
  };
}

/**
 * The effort string to send for `level`, or `undefined` to send none: unset level, a model without
 * reasoning, `"off"` (unless `compat.reasoningEffort.off` names an effort such as `"none"`), or a
 * level mapped to `null`.
 */
export function mapReasoningEffort(model: Model, level: ReasoningLevel | undefined): string | undefined {
  if (level === undefined || !model.reasoning) return undefined;
  const mapped = model.compat?.reasoningEffort?.[level];
  if (mapped === null) return undefined;
  if (typeof mapped === "string") return mapped;
  return level === "off" ? undefined : level;
}
