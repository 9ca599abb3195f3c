import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import type { ImageContent, Message, TextContent, ToolResultMessage } from "../message";

function imagePart(image: ImageContent): ChatCompletionContentPart {
  return { type: "image_url", image_url: { url: `data:${image.mimeType};base64,${image.data}` } };
}

function joinText(blocks: ReadonlyArray<{ type: string; text?: string }>): string {
  return blocks
    .filter((block): block is TextContent => block.type === "text")
    .map((block) => block.text)
    .join("\n");
}

function userContent(
  content: string | Array<TextContent | ImageContent>,
): string | ChatCompletionContentPart[] {
  // Plain strings are what every compatible server accepts; parts only when images are present.
  if (typeof content === "string") return content;
  if (!content.some((block) => block.type === "image")) return joinText(content);
  return content.map((block) =>
    block.type === "text" ? { type: "text", text: block.text } : imagePart(block),
  );
}

function assistantMessage(
  message: Message & { role: "assistant" },
): ChatCompletionAssistantMessageParam | undefined {
  const text = joinText(message.content);
  const calls = message.content.filter((block) => block.type === "toolCall");
  if (text === "" && calls.length === 0) return undefined;
  const converted: ChatCompletionAssistantMessageParam = {
    role: "assistant",
    content: text === "" ? null : text,
  };
  if (calls.length > 0) {
    converted.tool_calls = calls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    }));
  }
  return converted;
}

/**
 * Converts normalised messages (see `normalizeMessagesForProvider`) to Chat Completions messages,
 * after an optional system prompt sent with `systemRole`. Thinking is not sent (the API has no
 * field for it). Tool results become `tool` messages with their text; their images, which `tool`
 * messages cannot carry, follow the batch of results in one user message. Pure.
 */
export function convertToOpenAIChatMessages(
  messages: readonly Message[],
  systemPrompt: string | undefined,
  systemRole: "system" | "developer",
): ChatCompletionMessageParam[] {
  const result: ChatCompletionMessageParam[] = [];
  if (systemPrompt) result.push({ role: systemRole, content: systemPrompt });
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as Message;
    if (message.role === "user") {
      result.push({ role: "user", content: userContent(message.content) });
    } else if (message.role === "assistant") {
      const converted = assistantMessage(message);
      if (converted) result.push(converted);
    } else {
      const batch: ToolResultMessage[] = [message];
      while (messages[index + 1]?.role === "toolResult") batch.push(messages[++index] as ToolResultMessage);
      const images: ChatCompletionContentPart[] = [];
      for (const toolResult of batch) {
        const text = joinText(toolResult.content);
        result.push({
          role: "tool",
          tool_call_id: toolResult.toolCallId,
          content: text === "" ? "(no output)" : text,
        });
        const resultImages = toolResult.content.filter(
          (block): block is ImageContent => block.type === "image",
        );
        if (resultImages.length > 0) {
          images.push({
            type: "text",
            text: `Images returned by tool call ${toolResult.toolCallId} (${toolResult.toolName}):`,
          });
          images.push(...resultImages.map(imagePart));
        }
      }
      if (images.length > 0) result.push({ role: "user", content: images });
    }
  }
  return result;
}
