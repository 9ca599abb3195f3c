import type { AssistantMessage } from "../message";
import { isContextOverflowText } from "./is-context-overflow-text";

/**
 * Decides whether an assistant response shows that the context window overflowed. Three cases:
 *
 * 1. **Explicit**: `stopReason` is `"error"` and `errorMessage` matches a known overflow wording
 *    (Anthropic, OpenAI Chat and Responses, llama.cpp, vLLM, Ollama, LM Studio and other
 *    OpenAI-compatible servers; see `isContextOverflowText`) and no rate-limit wording.
 * 2. **Silent overflow** (needs `contextWindow`): the response ended normally (`"stop"`) but the
 *    provider reports `input + cacheRead` above the window, as servers that truncate quietly do.
 * 3. **Length overflow** (needs `contextWindow`): `stopReason` is `"length"`, nothing was generated
 *    (`output === 0`) and `input + cacheRead` reaches 99% of the window.
 *
 * Pure: reads the message, never mutates it, never throws. Case 1 works without a window, so a
 * caller that does not know the model's window still recognises explicit overflow errors.
 */
export function isContextOverflow(message: AssistantMessage, contextWindow?: number): boolean {
  if (message.stopReason === "error") {
    return typeof message.errorMessage === "string" && isContextOverflowText(message.errorMessage);
  }
  if (contextWindow === undefined || !(contextWindow > 0)) return false;
  const promptTokens = message.usage.input + message.usage.cacheRead;
  if (message.stopReason === "stop") return promptTokens > contextWindow;
  if (message.stopReason === "length") {
    return message.usage.output === 0 && promptTokens >= 0.99 * contextWindow;
  }
  return false;
}
