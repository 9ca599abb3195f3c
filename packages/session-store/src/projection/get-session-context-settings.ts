import type { SessionEntry } from "../session-entry";
import type { SessionContextSettings } from "./session-projection";

/**
 * Reads the thinking level and model from a path (root first): the latest `thinking_level_change`
 * wins (default `"off"`), and the latest `model_change` or assistant message wins for the model
 * (default `null`). Pass the full path: compaction does not hide these settings. Pure.
 */
export function getSessionContextSettings(path: readonly SessionEntry[]): SessionContextSettings {
  let thinkingLevel = "off";
  let model: SessionContextSettings["model"] = null;
  for (const entry of path) {
    if (entry.type === "thinking_level_change") thinkingLevel = entry.thinkingLevel;
    else if (entry.type === "model_change") model = { provider: entry.provider, modelId: entry.modelId };
    else if (entry.type === "message" && entry.message?.role === "assistant") {
      model = { provider: entry.message.provider, modelId: entry.message.model };
    }
  }
  return { thinkingLevel, model };
}
