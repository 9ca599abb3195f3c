/** Message builders for tests. */
import type { AgentMessage } from "@arbor/agent-loop";
import type { AssistantMessage, ToolResultMessage, Usage, UserMessage } from "@arbor/providers";

export function usage(input: number, output = 0, totalTokens = input + output): Usage {
  return {
    input,
    output,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

export function user(content: UserMessage["content"]): UserMessage {
  return { role: "user", content, timestamp: 1 };
}

export function assistant(
  content: AssistantMessage["content"] | string,
  options: {
    usage?: Usage;
    stopReason?: AssistantMessage["stopReason"];
    model?: string;
    errorMessage?: string;
  } = {},
): AssistantMessage {
  return {
    role: "assistant",
    content: typeof content === "string" ? [{ type: "text", text: content }] : content,
    api: "anthropic-messages",
    provider: "anthropic",
    model: options.model ?? "claude-test",
    usage: options.usage ?? usage(0, 0, 0),
    stopReason: options.stopReason ?? "stop",
    ...(options.errorMessage ? { errorMessage: options.errorMessage } : {}),
    timestamp: 2,
  };
}

export function toolCall(id: string, name: string, args: Record<string, unknown>) {
  return { type: "toolCall" as const, id, name, arguments: args };
}

export function toolResult(
  toolCallId: string,
  toolName: string,
  text: string,
  isError = false,
): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId,
    toolName,
    content: [{ type: "text", text }],
    isError,
    timestamp: 3,
  };
}

export function asAgent(messages: AgentMessage[]): AgentMessage[] {
  return messages;
}
