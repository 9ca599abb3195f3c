import type { ReasoningLevel } from "./reasoning-level";

/**
 * Wire API a model speaks. The three built-in values are served by the adapters at
 * `@arbor/providers/anthropic` and `@arbor/providers/openai`; other strings are allowed for
 * third-party adapters.
 */
export type ModelApi = "anthropic-messages" | "openai-chat" | "openai-responses" | (string & {});

/** Input modality a model accepts. */
export type ModelInput = "text" | "image";

/** Prices in US dollars per million tokens. */
export interface ModelCost {
  /** Uncached input tokens. */
  input: number;
  /** Output tokens (reasoning included). */
  output: number;
  /** Input tokens read from the prompt cache. */
  cacheRead: number;
  /** Input tokens written to the prompt cache (Anthropic's 5-minute rate). */
  cacheWrite: number;
}

/**
 * Per-model switches for servers that differ from the reference API. Every field is optional; the
 * adapter picks a default from the provider name (official `openai` / `anthropic` hosts get the
 * official behaviour, any other provider the conservative OpenAI-compatible one).
 */
export interface ModelCompat {
  /**
   * Anthropic: how thinking is requested. `"budget"` sends `thinking.budget_tokens` (Claude 4.0 to
   * 4.5); `"adaptive"` sends `thinking.type: "adaptive"` with `output_config.effort` (Claude 4.6+).
   */
  anthropicThinking?: "budget" | "adaptive";
  /** Whether `temperature` may be sent. Default true; newer Anthropic models reject it. */
  supportsTemperature?: boolean;
  /**
   * Effort string sent for each reasoning level (`reasoning_effort` on OpenAI, `output_config.effort`
   * on adaptive Anthropic models). `null` sends no effort at all (the model's default). Levels not
   * listed map to themselves, except `off`, which sends nothing.
   */
  reasoningEffort?: Partial<Record<ReasoningLevel, string | null>>;
  /** OpenAI Chat: role of the system prompt. Default `developer` for official reasoning models, else `system`. */
  systemRole?: "system" | "developer";
  /** OpenAI Chat: name of the output limit field. Default `max_completion_tokens` on `openai`, else `max_tokens`. */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
  /** OpenAI: whether `reasoning_effort` / `reasoning.effort` is sent. Default: `provider === "openai"`. */
  supportsReasoningEffort?: boolean;
  /** OpenAI Chat: whether `stream_options.include_usage` is sent. Default true. */
  supportsUsageInStreaming?: boolean;
  /** OpenAI: whether `prompt_cache_key` / `prompt_cache_retention` are sent. Default: `provider === "openai"`. */
  supportsPromptCaching?: boolean;
}

/**
 * Describes one model: where to reach it and what it can do. Plain data, safe to serialise.
 *
 * `contextWindow` and `maxTokens` are in tokens; `cost` is per million tokens. `baseUrl` overrides
 * the adapter's default endpoint (required for OpenAI-compatible servers such as Ollama, vLLM or
 * llama.cpp server, for example `http://localhost:11434/v1`).
 */
export interface Model {
  /** Model id as the API expects it, for example `claude-sonnet-4-5` or `gpt-4.1`. */
  id: string;
  /** Display name. */
  name?: string;
  /** Provider name: `anthropic`, `openai`, or the name of an OpenAI-compatible server. */
  provider: string;
  /** Wire API used to talk to the model. */
  api: ModelApi;
  /** Endpoint override. OpenAI-style URLs include the `/v1` segment; Anthropic ones do not. */
  baseUrl?: string;
  /** Largest prompt plus output the model accepts, in tokens. */
  contextWindow: number;
  /** Largest output the model produces in one response, in tokens. */
  maxTokens: number;
  /** Whether the model supports thinking / reasoning. */
  reasoning: boolean;
  /** Accepted inputs. Images sent to a text-only model are replaced by a placeholder text. */
  input: ModelInput[];
  /** Prices per million tokens (all 0 for local servers). */
  cost: ModelCost;
  /** Extra HTTP headers sent with every request to this model. */
  headers?: Record<string, string>;
  /** Server-specific switches. */
  compat?: ModelCompat;
}
