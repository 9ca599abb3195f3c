import type { AgentMessage } from "@arbor/agent-loop";
import type { AssistantMessage, Usage } from "@arbor/providers";
import { calculateContextTokens } from "../tokens/calculate-context-tokens";

/**
 * The usage of an assistant message when it can be trusted as a context size: not `aborted` or
 * `error`, present, and non-zero. A `length` stop is accepted (pi does the same).
 */
export function validAssistantUsage(message: AgentMessage): Usage | undefined {
  if (message.role !== "assistant") return undefined;
  const assistant = message as AssistantMessage;
  const stop = assistant.stopReason as string;
  if (stop === "aborted" || stop === "error") return undefined;
  if (!assistant.usage || calculateContextTokens(assistant.usage) <= 0) return undefined;
  return assistant.usage;
}
