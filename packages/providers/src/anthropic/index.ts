/**
 * `@arbor/providers/anthropic`: the Anthropic Messages adapter over the official
 * `@anthropic-ai/sdk` (an optional peer dependency; install it to use this subpath).
 */
export { type AnthropicProviderOptions, createAnthropicProvider } from "./anthropic-provider";
export { ANTHROPIC_THINKING_BUDGETS, buildAnthropicRequest } from "./build-anthropic-request";
