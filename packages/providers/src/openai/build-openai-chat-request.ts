import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import type { ReasoningEffort } from "openai/resources/shared";
import { normalizeMessagesForProvider } from "../normalize/normalize-messages-for-provider";
import type { ProviderRequest, StreamOptions } from "../provider/provider";
import { convertToOpenAIChatMessages } from "./convert-to-openai-chat-messages";
import { mapReasoningEffort, resolveOpenAICompat } from "./resolve-openai-compat";

/**
 * Builds the Chat Completions body for one request: normalised messages, tools, the output limit
 * in the field the server expects, `reasoning_effort`, usage in the stream, and, on servers that
 * support it, `prompt_cache_key` (the session id) and `prompt_cache_retention: "24h"` for `"long"`.
 * A retention of `"none"` sends neither. Pure.
 */
export function buildOpenAIChatRequest(
  request: ProviderRequest,
  options: StreamOptions,
): ChatCompletionCreateParamsStreaming {
  const { model } = request;
  const compat = resolveOpenAICompat(model);
  const messages = convertToOpenAIChatMessages(
    normalizeMessagesForProvider(request.messages, model),
    request.systemPrompt,
    compat.systemRole,
  );
  const params: ChatCompletionCreateParamsStreaming = { model: model.id, messages, stream: true };
  const maxTokens = options.maxTokens ?? model.maxTokens;
  if (compat.maxTokensField === "max_tokens") params.max_tokens = maxTokens;
  else params.max_completion_tokens = maxTokens;
  if (compat.supportsUsageInStreaming) params.stream_options = { include_usage: true };
  if (request.tools && request.tools.length > 0) {
    params.tools = request.tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
  }
  const effort = compat.supportsReasoningEffort ? mapReasoningEffort(model, options.reasoning) : undefined;
  if (effort) params.reasoning_effort = effort as ReasoningEffort;
  if (options.temperature !== undefined && compat.supportsTemperature)
    params.temperature = options.temperature;
  if (compat.supportsPromptCaching && options.cacheRetention !== "none") {
    if (options.sessionId) params.prompt_cache_key = options.sessionId;
    if (options.cacheRetention === "long") params.prompt_cache_retention = "24h";
  }
  return params;
}
