/**
 * Local structural stand-in for the `Provider` interface of `@arbor/providers` until its root entry
 * exports it. Mirrors the fields the loop uses; the real types satisfy it.
 */
import type { AssistantMessage, Message, Tool, ToolCall } from "@arbor/providers";

export interface Model {
  id: string;
  provider: string;
  api: string;
  contextWindow: number;
  maxTokens: number;
  [key: string]: unknown;
}

export interface ProviderRequest {
  model: Model;
  systemPrompt?: string;
  messages: Message[];
  tools?: Tool[];
}

export interface StreamOptions {
  signal?: AbortSignal;
  maxTokens?: number;
  temperature?: number;
  reasoning?: "off" | "minimal" | "low" | "medium" | "high";
  cacheRetention?: "none" | "short" | "long";
  sessionId?: string;
  headers?: Record<string, string>;
  apiKey?: string;
  baseUrl?: string;
  retry?: { maxRetries?: number; baseDelayMs?: number; maxDelayMs?: number; jitter?: number };
}

interface ContentBase {
  contentIndex: number;
  partial: AssistantMessage;
}

export type ProviderEvent =
  | { type: "start"; partial: AssistantMessage }
  | { type: "retry"; attempt: number; delayMs: number; error: Error }
  | ({ type: "text-start" } & ContentBase)
  | ({ type: "text-delta"; delta: string } & ContentBase)
  | ({ type: "text-end"; text: string } & ContentBase)
  | ({ type: "thinking-start" } & ContentBase)
  | ({ type: "thinking-delta"; delta: string } & ContentBase)
  | ({ type: "thinking-end"; thinking: string } & ContentBase)
  | ({ type: "toolcall-start"; id: string; name: string } & ContentBase)
  | ({ type: "toolcall-delta"; delta: string } & ContentBase)
  | ({ type: "toolcall-end"; toolCall: ToolCall } & ContentBase)
  | { type: "done"; message: AssistantMessage }
  | { type: "error"; message: AssistantMessage; error: Error };

export interface Provider {
  readonly specificationVersion: "v1";
  readonly name: string;
  stream(request: ProviderRequest, options?: StreamOptions): AsyncIterable<ProviderEvent>;
}
