import type {
  Base64ImageSource,
  CacheControlEphemeral,
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  ToolResultBlockParam,
} from "@anthropic-ai/sdk/resources/messages";
import type { AssistantMessage, ImageContent, Message, TextContent, ToolResultMessage } from "../message";

function toImageBlock(image: ImageContent): ImageBlockParam {
  return {
    type: "image",
    source: {
      type: "base64",
      media_type: image.mimeType as Base64ImageSource["media_type"],
      data: image.data,
    },
  };
}

function toUserBlocks(
  content: string | Array<TextContent | ImageContent>,
): Array<TextBlockParam | ImageBlockParam> {
  const blocks = typeof content === "string" ? [{ type: "text" as const, text: content }] : content;
  const result: Array<TextBlockParam | ImageBlockParam> = [];
  for (const block of blocks) {
    // The API rejects empty text blocks.
    if (block.type === "text") {
      if (block.text.trim() !== "") result.push({ type: "text", text: block.text });
    } else {
      result.push(toImageBlock(block));
    }
  }
  return result;
}

function toAssistantBlocks(message: AssistantMessage): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [];
  for (const block of message.content) {
    if (block.type === "text") {
      if (block.text.trim() !== "") blocks.push({ type: "text", text: block.text });
    } else if (block.type === "thinking") {
      if (block.redacted) {
        if (block.thinkingSignature)
          blocks.push({ type: "redacted_thinking", data: block.thinkingSignature });
      } else if (block.thinkingSignature) {
        blocks.push({ type: "thinking", thinking: block.thinking, signature: block.thinkingSignature });
      } else if (block.thinking.trim() !== "") {
        // Unsigned thinking cannot be verified by the API; keep its text as plain text.
        blocks.push({ type: "text", text: block.thinking });
      }
    } else {
      blocks.push({ type: "tool_use", id: block.id, name: block.name, input: block.arguments });
    }
  }
  return blocks;
}

/**
 * Anthropic rejects non-text content in an error result, so the images of an error result travel
 * after all results of the turn, introduced by a caption.
 */
function toToolResultBlocks(results: ToolResultMessage[]): ContentBlockParam[] {
  const blocks: ContentBlockParam[] = [];
  const trailing: ContentBlockParam[] = [];
  for (const result of results) {
    const images = result.content.filter((block): block is ImageContent => block.type === "image");
    const keepImagesInside = !result.isError || images.length === 0;
    const content: ToolResultBlockParam["content"] = [];
    for (const block of result.content) {
      if (block.type === "text") {
        if (block.text !== "") content.push({ type: "text", text: block.text });
      } else if (keepImagesInside) {
        content.push(toImageBlock(block));
      }
    }
    if (!keepImagesInside) {
      content.push({ type: "text", text: "(images follow the tool results)" });
      trailing.push({
        type: "text",
        text: `Images from the failed tool call ${result.toolCallId} (${result.toolName}):`,
      });
      trailing.push(...images.map(toImageBlock));
    }
    blocks.push({ type: "tool_result", tool_use_id: result.toolCallId, content, is_error: result.isError });
  }
  return [...blocks, ...trailing];
}

function markLastBlock(messages: MessageParam[], cacheControl: CacheControlEphemeral): void {
  const last = messages[messages.length - 1];
  if (last?.role !== "user" || typeof last.content === "string") return;
  const block = last.content[last.content.length - 1];
  if (block && (block.type === "text" || block.type === "image" || block.type === "tool_result")) {
    block.cache_control = cacheControl;
  }
}

/**
 * Converts normalised messages (see `normalizeMessagesForProvider`) to Anthropic `messages`:
 * consecutive tool results become one user message of `tool_result` blocks; signed thinking is
 * sent back with its signature, redacted thinking as `redacted_thinking`, unsigned thinking as
 * text; empty text blocks and empty messages are left out (the API rejects them). With
 * `cacheControl`, the last block of the final user message carries the cache breakpoint, so the
 * whole conversation prefix is cached. Pure.
 */
export function convertToAnthropicMessages(
  messages: readonly Message[],
  cacheControl: CacheControlEphemeral | undefined,
): MessageParam[] {
  const result: MessageParam[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as Message;
    if (message.role === "user") {
      const content = toUserBlocks(message.content);
      if (content.length > 0) result.push({ role: "user", content });
    } else if (message.role === "assistant") {
      const content = toAssistantBlocks(message);
      if (content.length > 0) result.push({ role: "assistant", content });
    } else {
      const results: ToolResultMessage[] = [message];
      while (messages[index + 1]?.role === "toolResult") results.push(messages[++index] as ToolResultMessage);
      result.push({ role: "user", content: toToolResultBlocks(results) });
    }
  }
  if (cacheControl) markLastBlock(result, cacheControl);
  return result;
}
