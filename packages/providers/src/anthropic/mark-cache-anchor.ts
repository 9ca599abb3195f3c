import type { CacheControlEphemeral, MessageParam } from "@anthropic-ai/sdk/resources/messages";
import type { Message } from "../message";
import type { Model } from "../model/model";
import { normalizeMessagesForProvider } from "../normalize/normalize-messages-for-provider";
import { isCacheAnchorUsable } from "../provider/is-cache-anchor-usable";
import { convertToAnthropicMessages } from "./convert-to-anthropic-messages";

/**
 * Puts a cache breakpoint on the Anthropic message that ends with `request.messages[anchor]` (its
 * last text, image or tool-result block), when the anchor is usable ({@link isCacheAnchorUsable}) and
 * that message is not the last one (the last one carries a breakpoint already). The position is
 * found by converting the prefix `messages[0..anchor]` the way the whole request is converted.
 * Mutates `converted`; returns true when a breakpoint was placed. Never throws.
 */
export function markCacheAnchor(
  converted: MessageParam[],
  messages: readonly Message[],
  anchor: number | undefined,
  model: Model,
  cacheControl: CacheControlEphemeral,
): boolean {
  if (!isCacheAnchorUsable(messages, anchor)) return false;
  const prefix = convertToAnthropicMessages(
    normalizeMessagesForProvider(messages.slice(0, (anchor as number) + 1), model),
    undefined,
  );
  const target = converted[prefix.length - 1];
  if (prefix.length === 0 || prefix.length >= converted.length || target?.role !== "user") return false;
  if (typeof target.content === "string") return false;
  const block = target.content[target.content.length - 1];
  if (block && (block.type === "text" || block.type === "image" || block.type === "tool_result")) {
    block.cache_control = cacheControl;
    return true;
  }
  return false;
}
