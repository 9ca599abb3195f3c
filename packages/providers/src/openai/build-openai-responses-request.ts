import type { ResponseCreateParamsStreaming } from "openai/resources/responses/responses";
import type { ReasoningEffort } from "openai/resources/shared";
import { normalizeMessagesForProvider } from "../normalize/normalize-messages-for-provider";
import type { ProviderRequest, StreamOptions } from "../provider/provider";
import { convertToOpenAIResponsesInput } from "./convert-to-openai-responses-input";
import { mapReasoningEffort, resolveOpenAICompat } from "./resolve-openai-compat";

/**
 * Builds the Responses API body for one request: `instructions` from the system prompt, input items,
 * function tools, `max_output_tokens`, and `store: false`. Reasoning models get
 * `reasoning: { effort, summary: "auto" }` and, on the official API, encrypted reasoning content
 * back so that it can be replayed. Prompt caching as for Chat (`prompt_cache_key` from the session
 * id, `"24h"` retention for `"long"`, nothing for `"none"`). Pure.
 */
export function buildOpenAIResponsesRequest(
  request: ProviderRequest,
  options: StreamOptions,
): ResponseCreateParamsStreaming {
  const { model } = request;
  const compat = resolveOpenAICompat(model);
  const input = convertToOpenAIResponsesInput(normalizeMessagesForProvider(request.messages, model), model);
  const params: ResponseCreateParamsStreaming = {
    model: model.id,
    input,
    stream: true,
    store: false,
    max_output_tokens: options.maxTokens ?? model.maxTokens,
  };
  if (request.systemPrompt) params.instructions = request.systemPrompt;
  if (request.tools && request.tools.length > 0) {
    params.tools = request.tools.map((tool) => ({
      type: "function",
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      strict: false,
    }));
  }
  const effort = compat.supportsReasoningEffort ? mapReasoningEffort(model, options.reasoning) : undefined;
  if (effort) params.reasoning = { effort: effort as ReasoningEffort, summary: "auto" };
  if (model.reasoning && model.provider === "openai") params.include = ["reasoning.encrypted_content"];
  if (options.temperature !== undefined && compat.supportsTemperature)
    params.temperature = options.temperature;
  if (compat.supportsPromptCaching && options.cacheRetention !== "none") {
    if (options.sessionId) params.prompt_cache_key = options.sessionId;
    if (options.cacheRetention === "long") params.prompt_cache_retention = "24h";
  }
  return params;
}
