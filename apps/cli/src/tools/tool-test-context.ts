import type { AgentToolExecuteContext } from "@arbor/agent-loop";

/** An execute context for calling a tool directly (tests, scripts). */
export function toolContext(signal: AbortSignal = new AbortController().signal): AgentToolExecuteContext {
  return { signal, toolCallId: "call-1", onUpdate: () => undefined };
}
