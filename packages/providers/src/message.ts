/**
 * LLM message model shared by every Arbor layer. The shapes follow pi's transcript format field by
 * field, so that session files written by pi load unchanged and files written by Arbor load in pi.
 */

/** Plain text. `textSignature` is an opaque provider signature kept for round trips. */
export interface TextContent {
  type: "text";
  text: string;
  textSignature?: string;
}

/** An inline image, base64-encoded. */
export interface ImageContent {
  type: "image";
  /** Base64 data without a `data:` prefix. */
  data: string;
  /** For example `image/png`. */
  mimeType: string;
}

/**
 * Model reasoning. `thinkingSignature` is the provider's signature (Anthropic requires it to send the
 * block back); `redacted` marks encrypted thinking whose text is not readable.
 */
export interface ThinkingContent {
  type: "thinking";
  thinking: string;
  thinkingSignature?: string;
  redacted?: boolean;
}

/** A tool call requested by the model. `arguments` is the parsed JSON object. */
export interface ToolCall {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  thoughtSignature?: string;
  namespace?: string;
}

/** Why an assistant response ended. */
export type StopReason = "stop" | "length" | "toolUse" | "error" | "aborted";

/** Cost in US dollars, split like the token counts. */
export interface UsageCost {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  total: number;
}

/**
 * Token usage of one response as the provider reported it. `input` excludes cached tokens;
 * `totalTokens` is what the provider counted as the whole context plus output (0 when unknown).
 */
export interface Usage {
  /** Prompt tokens not read from the cache (OpenAI's prompt total minus its cached tokens). */
  input: number;
  /** Generated tokens, reasoning included. */
  output: number;
  /** Prompt tokens read from the prompt cache. */
  cacheRead: number;
  /** Prompt tokens written to the prompt cache (Anthropic only; OpenAI reports none). */
  cacheWrite: number;
  /** Part of `cacheWrite` written with a one-hour lifetime (Anthropic `ttl: "1h"`). */
  cacheWrite1h?: number;
  /** Part of `output` spent on reasoning, when the provider reports it. */
  reasoning?: number;
  totalTokens: number;
  /** Cost in US dollars, from the model's prices (`calculateCost`). */
  cost: UsageCost;
}

/** A message written by the user. A string content is shorthand for one text block. */
export interface UserMessage {
  role: "user";
  content: string | Array<TextContent | ImageContent>;
  /** Unix milliseconds. */
  timestamp: number;
}

/** A response from a model. */
export interface AssistantMessage {
  role: "assistant";
  content: Array<TextContent | ThinkingContent | ToolCall>;
  /** Wire API that produced it, for example `anthropic-messages` or `openai-chat`. */
  api: string;
  provider: string;
  /** Model id as requested. */
  model: string;
  responseModel?: string;
  responseId?: string;
  usage: Usage;
  stopReason: StopReason;
  /** Human-readable cause when `stopReason` is `error` or `aborted`. Never contains an API key. */
  errorMessage?: string;
  /** Unix milliseconds. */
  timestamp: number;
}

/** The result of running one tool call. */
export interface ToolResultMessage {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: Array<TextContent | ImageContent>;
  /** Tool-specific structured data; never sent to the model. */
  details?: unknown;
  isError: boolean;
  /** Unix milliseconds. */
  timestamp: number;
}

/** A tool the model may call: name, description and a JSON Schema for its arguments. */
export interface Tool {
  name: string;
  description: string;
  /** JSON Schema (an object schema) of the arguments. */
  parameters: Record<string, unknown>;
}

/**
 * A system message in the transcript. The prompt and the tool loadout live in the transcript: the
 * first system message carries every section and tool, later ones patch `sections` by name (`null`
 * removes a section) and add or remove tools. Replaying them yields the current system prompt.
 */
export interface SystemMessage {
  role: "system";
  content: string | TextContent[];
  sections?: Record<string, string | null>;
  toolsAdded?: Tool[];
  toolsRemoved?: Array<{ name: string }>;
  /** Unix milliseconds. */
  timestamp: number;
}

/** A message that can be sent to a provider (system prompt and tools travel separately). */
export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/**
 * A message of a transcript as the agent loop hands it to `normalizeContext`: provider messages plus
 * system messages, which `normalizeContext` folds into the system prompt and tool list.
 */
export type TranscriptMessage = SystemMessage | Message;
