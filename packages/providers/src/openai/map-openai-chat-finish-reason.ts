import type { StopReason } from "../message";

/**
 * Maps a Chat Completions `finish_reason`: `length` → `"length"`; `tool_calls` / `function_call` →
 * `"toolUse"`; `content_filter` → `"refused"`; `stop` and anything else → `"stop"`, or `"toolUse"`
 * when the response holds tool calls (some compatible servers report `stop` with tool calls).
 */
export function mapOpenAIChatFinishReason(
  reason: string,
  hasToolCalls: boolean,
): Exclude<StopReason, "error" | "aborted"> | "refused" {
  if (reason === "length") return "length";
  if (reason === "content_filter") return "refused";
  if (reason === "tool_calls" || reason === "function_call" || hasToolCalls) return "toolUse";
  return "stop";
}
