import type { Model } from "@arbor/providers";
import { type AssistantMessage, createEmptyUsage } from "@arbor/providers";

/**
 * Builds the assistant message that stands for a response that failed or was aborted outside the
 * provider's own reporting (abort before the request, a failing seam, a broken stream). When
 * `partial` is given its content and usage are kept (copied, not shared).
 */
export function createFailedAssistantMessage(
  model: Model,
  stopReason: "error" | "aborted",
  errorMessage: string,
  partial?: AssistantMessage,
): AssistantMessage {
  if (partial) return { ...partial, content: [...partial.content], stopReason, errorMessage };
  return {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: createEmptyUsage(),
    stopReason,
    errorMessage,
    timestamp: Date.now(),
  };
}
