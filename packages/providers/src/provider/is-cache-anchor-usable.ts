import type { Message } from "../message";

/**
 * True when `messages[anchor]` can carry a cache anchor (see `ProviderRequest.cacheAnchor`): a user
 * message or a tool result directly followed by an assistant message, so that the Anthropic user
 * message holding it ends there and its prefix is exactly `messages[0..anchor]`. Pure.
 */
export function isCacheAnchorUsable(messages: readonly Message[], anchor: number | undefined): boolean {
  if (anchor === undefined || !Number.isInteger(anchor) || anchor < 0) return false;
  const role = messages[anchor]?.role;
  return (role === "user" || role === "toolResult") && messages[anchor + 1]?.role === "assistant";
}
