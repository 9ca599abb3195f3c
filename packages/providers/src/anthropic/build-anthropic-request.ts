import type {
  Tool as AnthropicTool,
  CacheControlEphemeral,
  MessageCreateParamsStreaming,
  TextBlockParam,
  ThinkingConfigParam,
} from "@anthropic-ai/sdk/resources/messages";
import type { Model } from "../model/model";
import type { ReasoningLevel } from "../model/reasoning-level";
import { normalizeMessagesForProvider } from "../normalize/normalize-messages-for-provider";
import type { CacheRetention, ProviderRequest, StreamOptions } from "../provider/provider";
import { convertToAnthropicMessages } from "./convert-to-anthropic-messages";
import { markCacheAnchor } from "./mark-cache-anchor";

/** The request body: the SDK's streaming params plus `temperature`, which its types no longer list. */
export type AnthropicRequestBody = MessageCreateParamsStreaming & { temperature?: number };

/** Thinking budgets (tokens) of budget-style models, per reasoning level. */
export const ANTHROPIC_THINKING_BUDGETS: Readonly<Record<Exclude<ReasoningLevel, "off">, number>> = {
  minimal: 1024,
  low: 4096,
  medium: 10_240,
  high: 32_768,
};

const MIN_THINKING_BUDGET = 1024;
const DEFAULT_EFFORTS: Record<Exclude<ReasoningLevel, "off">, string> = {
  minimal: "low",
  low: "low",
  medium: "medium",
  high: "high",
};

/** The `cache_control` marker for a retention, or none for `"none"`. */
export function anthropicCacheControl(
  retention: CacheRetention | undefined,
): CacheControlEphemeral | undefined {
  if (retention === "none") return undefined;
  return retention === "long" ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
}

interface ThinkingSettings {
  thinking?: ThinkingConfigParam;
  effort?: string;
}

function thinkingSettings(
  model: Model,
  level: ReasoningLevel | undefined,
  maxTokens: number,
): ThinkingSettings {
  if (!model.reasoning || level === undefined) return {};
  if (level === "off") return { thinking: { type: "disabled" } };
  if (model.compat?.anthropicThinking === "adaptive") {
    const mapped = model.compat.reasoningEffort?.[level];
    const effort = mapped === undefined ? DEFAULT_EFFORTS[level] : mapped;
    return effort === null ? { thinking: { type: "adaptive" } } : { thinking: { type: "adaptive" }, effort };
  }
  // The budget must leave room for the answer and stay under max_tokens.
  const budget = Math.min(ANTHROPIC_THINKING_BUDGETS[level], maxTokens - MIN_THINKING_BUDGET);
  if (budget < MIN_THINKING_BUDGET) return {};
  return { thinking: { type: "enabled", budget_tokens: budget } };
}

/**
 * Builds the Messages API body for one request: normalised messages, system prompt and tools, the
 * output limit (`options.maxTokens`, else the model's), thinking per reasoning level (budget or
 * adaptive, see `ModelCompat.anthropicThinking`), and prompt caching. Unless the retention is
 * `"none"`, three cache breakpoints are set: the system prompt, the last tool, and the last block of
 * the conversation (`ttl: "1h"` for `"long"`), plus a fourth after `request.cacheAnchor` when it is
 * usable (see `markCacheAnchor`; Anthropic accepts four). `temperature` is left out while thinking is on and
 * for models with `compat.supportsTemperature === false`, since the API rejects it there. Pure.
 */
export function buildAnthropicRequest(
  request: ProviderRequest,
  options: StreamOptions,
): AnthropicRequestBody {
  const { model } = request;
  const cacheControl = anthropicCacheControl(options.cacheRetention);
  const maxTokens = options.maxTokens ?? model.maxTokens;
  const messages = convertToAnthropicMessages(
    normalizeMessagesForProvider(request.messages, model),
    cacheControl,
  );
  if (cacheControl) markCacheAnchor(messages, request.messages, request.cacheAnchor, model, cacheControl);
  const params: AnthropicRequestBody = { model: model.id, max_tokens: maxTokens, messages, stream: true };
  if (request.systemPrompt) {
    const system: TextBlockParam = { type: "text", text: request.systemPrompt };
    if (cacheControl) system.cache_control = cacheControl;
    params.system = [system];
  }
  if (request.tools && request.tools.length > 0) {
    params.tools = request.tools.map((tool, index, all): AnthropicTool => {
      const converted: AnthropicTool = {
        name: tool.name,
        description: tool.description,
        input_schema: tool.parameters as AnthropicTool["input_schema"],
      };
      if (cacheControl && index === all.length - 1) converted.cache_control = cacheControl;
      return converted;
    });
  }
  const { thinking, effort } = thinkingSettings(model, options.reasoning, maxTokens);
  if (thinking) params.thinking = thinking;
  if (effort)
    params.output_config = {
      effort: effort as NonNullable<MessageCreateParamsStreaming["output_config"]>["effort"],
    };
  const thinkingOn = thinking !== undefined && thinking.type !== "disabled";
  const temperatureAllowed = model.compat?.supportsTemperature !== false && !thinkingOn;
  if (options.temperature !== undefined && temperatureAllowed) params.temperature = options.temperature;
  return params;
}
