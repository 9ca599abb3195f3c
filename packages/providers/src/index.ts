/**
 * `@arbor/providers`: the provider specification. Message and content types, model descriptors and
 * the built-in catalog, the streaming `Provider` interface, typed errors, overflow detection and
 * message normalisation. No SDK is reachable from this entry: the adapters live at
 * `@arbor/providers/anthropic` and `@arbor/providers/openai`, test doubles at
 * `@arbor/providers/testing`.
 */
export { createEmptyUsage } from "./create-empty-usage";
export { ArborError } from "./errors/arbor-error";
export { type ClassifyProviderErrorOptions, classifyProviderError } from "./errors/classify-provider-error";
export {
  createSecretRedactor,
  type SecretRedactor,
  type SecretRedactorOptions,
} from "./errors/create-secret-redactor";
export { hasErrorMarker, setErrorMarker } from "./errors/error-marker";
export type { HeaderSource } from "./errors/header-lookup";
export {
  type MissingPeerDependencyDetails,
  MissingPeerDependencyError,
} from "./errors/missing-peer-dependency-error";
export { parseRetryAfter } from "./errors/parse-retry-after";
export { ProviderError, type ProviderErrorCode, type ProviderErrorOptions } from "./errors/provider-error";
export { redactSecrets } from "./errors/redact-secrets";
export type {
  AssistantMessage,
  ImageContent,
  Message,
  StopReason,
  SystemMessage,
  TextContent,
  ThinkingContent,
  Tool,
  ToolCall,
  ToolResultMessage,
  TranscriptMessage,
  Usage,
  UsageCost,
  UserMessage,
} from "./message";
export { ANTHROPIC_MODELS } from "./model/anthropic-models";
export { calculateCost } from "./model/calculate-cost";
export { defineModel, type ModelDefinition } from "./model/define-model";
export type { Model, ModelApi, ModelCompat, ModelCost, ModelInput } from "./model/model";
export { getModel, listModels } from "./model/model-catalog";
export { OPENAI_MODELS } from "./model/openai-models";
export type { ReasoningLevel } from "./model/reasoning-level";
export {
  isFromSameModel,
  MISSING_TOOL_RESULT_TEXT,
  normalizeMessagesForProvider,
} from "./normalize/normalize-messages-for-provider";
export { IMAGE_OMITTED_TEXT } from "./normalize/replace-unsupported-images";
export { isContextOverflow } from "./overflow/is-context-overflow";
export {
  CONTEXT_OVERFLOW_PATTERNS,
  isContextOverflowText,
  NOT_OVERFLOW_PATTERNS,
} from "./overflow/is-context-overflow-text";
export { complete } from "./provider/complete";
export { isCacheAnchorUsable } from "./provider/is-cache-anchor-usable";
export type {
  CacheRetention,
  Provider,
  ProviderRequest,
  RetryOptions,
  StreamOptions,
} from "./provider/provider";
export type { ProviderContentEventBase, ProviderEvent, ProviderEventType } from "./provider/provider-event";
