import type { TranscriptMessage } from "@arbor/providers";

/** Tool-result characters (UTF-16 units) kept by {@link serializeConversation} by default. */
export const TOOL_RESULT_MAX_CHARS = 2000;

/** Options of {@link serializeConversation}. */
export interface SerializeConversationOptions {
  /** Tool results longer than this are cut (UTF-16 units). Default {@link TOOL_RESULT_MAX_CHARS}. */
  toolResultMaxChars?: number;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Cuts `text` to `max` units without splitting a surrogate pair; the marker counts from the full length. */
function truncateToolResult(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = Math.max(0, max);
  const splitsPair = isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end));
  const head = text.slice(0, splitsPair ? end - 1 : end);
  return `${head}\n\n[... ${text.length - max} more characters truncated]`;
}

function joinText(content: unknown, separator: string): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts: string[] = [];
  for (const block of content as Array<{ type?: unknown; text?: unknown }>) {
    if (block !== null && typeof block === "object" && block.type === "text")
      texts.push(typeof block.text === "string" ? block.text : "");
  }
  return texts.join(separator);
}

function formatToolCall(block: { name?: unknown; arguments?: unknown }): string {
  const args = block.arguments !== null && typeof block.arguments === "object" ? block.arguments : {};
  const pairs = Object.entries(args).map(([key, value]) => `${key}=${JSON.stringify(value)}`);
  return `${String(block.name)}(${pairs.join(", ")})`;
}

/**
 * Renders transcript messages as plain text for a summarization prompt, so the model reads a record
 * instead of a conversation to continue. Call `convertToLlm` first: only base roles are rendered.
 * Parts are joined with a blank line:
 * - `user`: `[User]: <text blocks joined without separator>` (images ignored; nothing for an empty text);
 * - `assistant`: `[Assistant]: <text blocks joined with "\n">` when it has a text block, then
 *   `[Assistant tool calls]: name(key=<JSON value>, …); name2()` when it calls tools. Thinking is omitted;
 * - `toolResult`: `[Tool result]: <text>`, cut to `toolResultMaxChars` (2000) with the marker
 *   `\n\n[... N more characters truncated]` (N counted on the full text). `isError` is not shown;
 * - `system` and other roles: nothing.
 *
 * Equal to pi 1.6.0's `serializeConversation`. Pure: never mutates, never throws on well-typed input.
 */
export function serializeConversation(
  messages: readonly TranscriptMessage[],
  options: SerializeConversationOptions = {},
): string {
  const maxChars = options.toolResultMaxChars ?? TOOL_RESULT_MAX_CHARS;
  const parts: string[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      const text = joinText(message.content, "");
      if (text) parts.push(`[User]: ${text}`);
    } else if (message.role === "assistant") {
      const content = Array.isArray(message.content) ? message.content : [];
      const calls: string[] = [];
      let hasText = false;
      for (const block of content) {
        if (block.type === "toolCall") calls.push(formatToolCall(block));
        else if (block.type === "text") hasText = true;
      }
      if (hasText) parts.push(`[Assistant]: ${joinText(content, "\n")}`);
      if (calls.length > 0) parts.push(`[Assistant tool calls]: ${calls.join("; ")}`);
    } else if (message.role === "toolResult") {
      const text = joinText(message.content, "");
      if (text) parts.push(`[Tool result]: ${truncateToolResult(text, maxChars)}`);
    }
  }
  return parts.join("\n\n");
}
