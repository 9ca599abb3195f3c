import type { ProviderError } from "../errors/provider-error";
import type { AssistantMessage, ToolCall } from "../message";

/**
 * Fields shared by content events. `partial` is the assistant message being built: the same object
 * across the whole stream, updated in place (clone it to keep a snapshot). `contentIndex` is the
 * position of the block in `partial.content`.
 */
export interface ProviderContentEventBase {
  contentIndex: number;
  partial: AssistantMessage;
}

/**
 * One step of a streamed response. Order: `start`, then any of `retry` (before content only) and
 * content events (each block is `*-start`, `*-delta`…, `*-end`; blocks do not interleave, except
 * that an OpenAI Chat stream may open tool calls in parallel), then exactly one `done` or `error`.
 */
export type ProviderEvent =
  /** The request was accepted for processing; `partial` has no content yet. */
  | { type: "start"; partial: AssistantMessage }
  /**
   * Attempt number `attempt` (1-based) failed before any content with a retryable `error`; the next
   * attempt starts after `delayMs`. `partial` of earlier events is emptied for the new attempt.
   */
  | { type: "retry"; attempt: number; delayMs: number; error: ProviderError }
  | ({ type: "text-start" } & ProviderContentEventBase)
  | ({ type: "text-delta"; delta: string } & ProviderContentEventBase)
  | ({ type: "text-end"; text: string } & ProviderContentEventBase)
  | ({ type: "thinking-start" } & ProviderContentEventBase)
  | ({ type: "thinking-delta"; delta: string } & ProviderContentEventBase)
  | ({ type: "thinking-end"; thinking: string } & ProviderContentEventBase)
  | ({ type: "toolcall-start"; id: string; name: string } & ProviderContentEventBase)
  /** `delta` is a fragment of the JSON arguments; `partial` holds the best-effort parse so far. */
  | ({ type: "toolcall-delta"; delta: string } & ProviderContentEventBase)
  | ({ type: "toolcall-end"; toolCall: ToolCall } & ProviderContentEventBase)
  /** The response completed; `message.stopReason` is `"stop"`, `"length"` or `"toolUse"`. */
  | { type: "done"; message: AssistantMessage }
  /**
   * The response failed. `message.stopReason` is `"error"` or `"aborted"`, `message.errorMessage`
   * says why (never with an API key), and `message.content` keeps every block received.
   */
  | { type: "error"; message: AssistantMessage; error: ProviderError };

/** The `type` of every {@link ProviderEvent}. */
export type ProviderEventType = ProviderEvent["type"];
