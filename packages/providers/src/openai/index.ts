/**
 * `@arbor/providers/openai`: the OpenAI adapter (Chat Completions and Responses) over the official
 * `openai` SDK (an optional peer dependency; install it to use this subpath). Also serves any
 * OpenAI-compatible server through `baseUrl`.
 */
export { buildOpenAIChatRequest } from "./build-openai-chat-request";
export { buildOpenAIResponsesRequest } from "./build-openai-responses-request";
export { createOpenAIProvider, type OpenAIProviderOptions } from "./openai-provider";
