import type { AgentEvent } from "../../src/agent-event";
import type { AgentMessage } from "../../src/agent-message";

/**
 * Collects a run's events and short labels for order assertions. Labels are taken when the event
 * arrives: streaming messages are live objects that change afterwards.
 */
export function recordEvents() {
  const events: AgentEvent[] = [];
  const labels: string[] = [];
  return {
    events,
    onEvent: (event: AgentEvent) => {
      events.push(event);
      labels.push(label(event));
    },
    labels: () => [...labels],
  };
}

function label(event: AgentEvent): string {
  switch (event.type) {
    case "turn_start":
    case "turn_end":
      return `${event.type}:${event.turnIndex}`;
    case "message_start":
    case "message_end":
      return `${event.type}:${describeMessage(event.message)}`;
    case "message_update":
      return `${event.type}:${event.assistantMessageEvent.type}`;
    case "tool_execution_start":
    case "tool_execution_update":
      return `${event.type}:${event.toolCallId}`;
    case "tool_execution_end":
      return `${event.type}:${event.toolCallId}${event.isError ? ":error" : ""}`;
    case "agent_end":
      return `${event.type}:${event.stopReason}`;
    default:
      return event.type;
  }
}

function describeMessage(message: AgentMessage): string {
  if (message.role === "toolResult") return `toolResult(${message.toolCallId})`;
  if (message.role === "assistant") return `assistant(${message.stopReason})`;
  return message.role;
}

export function user(text: string): AgentMessage {
  return { role: "user", content: text, timestamp: 1 };
}

export function textOf(message: AgentMessage | undefined): string {
  if (message === undefined || !("content" in message)) return "";
  const content = message.content;
  if (typeof content === "string") return content;
  return content.map((block) => ("text" in block ? block.text : "")).join("");
}
