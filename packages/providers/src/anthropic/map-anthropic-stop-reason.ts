import type { StopReason } from "../message";

/** A stop reason of a completed response, or `"refused"` for a response the API ended as declined. */
export type MappedStopReason = Exclude<StopReason, "error" | "aborted"> | "refused";

/**
 * Maps Anthropic's `stop_reason`: `end_turn`, `stop_sequence` and `pause_turn` → `"stop"`;
 * `max_tokens` and `model_context_window_exceeded` → `"length"`; `tool_use` → `"toolUse"`;
 * `refusal` and `sensitive` → `"refused"`. Unknown or missing values → `"stop"`.
 */
export function mapAnthropicStopReason(reason: string | null | undefined): MappedStopReason {
  switch (reason) {
    case "max_tokens":
    case "model_context_window_exceeded":
      return "length";
    case "tool_use":
      return "toolUse";
    case "refusal":
    case "sensitive":
      return "refused";
    default:
      return "stop";
  }
}
