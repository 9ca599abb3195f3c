import type { AssistantMessage, ProviderEvent, StopReason, ToolResultMessage } from "@arbor/providers";
import type { AgentMessage } from "./agent-message";
import type { AgentToolResult, AgentToolUpdate } from "./agent-tool";

/** The run started. Always the first event. */
export interface AgentStartEvent {
  type: "agent_start";
}

/** A turn started: one assistant request and the tool calls it asks for. */
export interface TurnStartEvent {
  type: "turn_start";
  /** 0 for the first turn of the run, then 1, 2, … */
  turnIndex: number;
  /** When the turn started (`Date.now()`). */
  timestamp: number;
}

/**
 * A message entered the context: a prompt, a steering or follow-up message, a tool result, or an
 * assistant response that started streaming. For a streaming response `message` is the provider's
 * live partial message, updated in place until `message_end` (clone it to keep a snapshot).
 */
export interface MessageStartEvent {
  type: "message_start";
  message: AgentMessage;
}

/**
 * The streaming assistant message changed. `message` is the provider's partial message: a live
 * object updated in place as the stream goes on (clone it to keep a snapshot). `assistantMessageEvent` is
 * the provider event behind the update (`text-delta`, `toolcall-end`, `retry`, …).
 */
export interface MessageUpdateEvent {
  type: "message_update";
  message: AssistantMessage;
  assistantMessageEvent: ProviderEvent;
}

/** A message is complete and part of the context. For an assistant response: the final message. */
export interface MessageEndEvent {
  type: "message_end";
  message: AgentMessage;
}

/** A tool call is about to run (or to be answered with an error result without running). */
export interface ToolExecutionStartEvent {
  type: "tool_execution_start";
  toolCallId: string;
  toolName: string;
  args: Record<string, unknown>;
}

/** A running tool reported progress through `onUpdate`. */
export interface ToolExecutionUpdateEvent {
  type: "tool_execution_update";
  toolCallId: string;
  toolName: string;
  /** The call's arguments, as for `tool_execution_start`. */
  args: Record<string, unknown>;
  /** What the tool passed to `onUpdate`. */
  partialResult: AgentToolUpdate;
}

/** A tool call finished; its tool result message follows (see the order on {@link AgentEvent}). */
export interface ToolExecutionEndEvent {
  type: "tool_execution_end";
  toolCallId: string;
  toolName: string;
  result: AgentToolResult;
  isError: boolean;
}

/** A turn ended: its assistant message and the tool results appended for it. */
export interface TurnEndEvent {
  type: "turn_end";
  turnIndex: number;
  message: AssistantMessage;
  toolResults: ToolResultMessage[];
}

/** The run ended. Always the last event. */
export interface AgentEndEvent {
  type: "agent_end";
  /** Every message this run appended, in order (prompts, steering, responses, tool results). */
  messages: AgentMessage[];
  /**
   * Why the run ended: the last response's stop reason (`stop`, `length`, `toolUse`, `error`), or
   * `aborted` when the run's signal aborted at any point.
   */
  stopReason: StopReason;
}

/**
 * Every event of a run, emitted through `onEvent` in this order:
 *
 * ```text
 * agent_start
 *   turn_start {turnIndex: 0}
 *     message_start / message_end            each prompt, then each steering message pending
 *     message_start                          the assistant response begins (partial message)
 *     message_update …                       one per provider event
 *     message_end                            the final assistant message
 *     tool_execution_start                   per tool call, in the response's order
 *     tool_execution_update …
 *     tool_execution_end
 *     message_start / message_end            the tool result messages, in the response's order
 *   turn_end
 *   turn_start {turnIndex: 1}               when tool results, steering or follow-ups continue the run
 *     message_start / message_end            steering or follow-up messages
 *     …
 *   turn_end
 * agent_end
 * ```
 *
 * Tool calls: a sequential call emits start, updates, end, then its result message before the
 * next call starts. A group of neighbouring parallel calls emits every start (in order), then the
 * ends in completion order, then the group's result messages in the response's order. An assistant
 * message with stop reason `error` or `aborted` runs no tools; the run ends after its `turn_end`.
 */
export type AgentEvent =
  | AgentStartEvent
  | TurnStartEvent
  | MessageStartEvent
  | MessageUpdateEvent
  | MessageEndEvent
  | ToolExecutionStartEvent
  | ToolExecutionUpdateEvent
  | ToolExecutionEndEvent
  | TurnEndEvent
  | AgentEndEvent;

/** The `type` of every {@link AgentEvent}. */
export type AgentEventType = AgentEvent["type"];

/**
 * The loop's events as a hook map (`{ [type]: { event; result: undefined } }`), for an application
 * that forwards `onEvent` to a hook bus: `createHookBus<AgentLoopEvents & …>()`. All are
 * notifications.
 */
export type AgentLoopEvents = {
  [E in AgentEvent as E["type"]]: { event: E; result: undefined };
};
