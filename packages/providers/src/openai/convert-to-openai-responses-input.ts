import type {
  ResponseFunctionCallOutputItemList,
  ResponseInputItem,
  ResponseInputMessageContentList,
  ResponseReasoningItem,
} from "openai/resources/responses/responses";
import type { AssistantMessage, ImageContent, Message, TextContent } from "../message";
import type { Model } from "../model/model";
import { isFromSameModel } from "../normalize/normalize-messages-for-provider";

function imageUrl(image: ImageContent): string {
  return `data:${image.mimeType};base64,${image.data}`;
}

function userContent(content: string | Array<TextContent | ImageContent>): ResponseInputMessageContentList {
  if (typeof content === "string") return [{ type: "input_text", text: content }];
  return content.map((block) =>
    block.type === "text"
      ? { type: "input_text", text: block.text }
      : { type: "input_image", image_url: imageUrl(block), detail: "auto" },
  );
}

/** Reads a reasoning item stored as a thinking signature; undefined when it is not one. */
function storedReasoningItem(signature: string | undefined): ResponseReasoningItem | undefined {
  if (!signature) return undefined;
  try {
    const value = JSON.parse(signature) as Partial<ResponseReasoningItem>;
    return value?.type === "reasoning" && typeof value.id === "string"
      ? (value as ResponseReasoningItem)
      : undefined;
  } catch {
    return undefined;
  }
}

function assistantItems(message: AssistantMessage, model: Model): ResponseInputItem[] {
  const sameModel = isFromSameModel(message, model);
  const items: ResponseInputItem[] = [];
  for (const block of message.content) {
    if (block.type === "thinking") {
      // Only this model's own reasoning items (with encrypted content) can be replayed.
      const item = sameModel ? storedReasoningItem(block.thinkingSignature) : undefined;
      if (item) items.push(item);
    } else if (block.type === "text") {
      if (block.text === "") continue;
      if (sameModel && block.textSignature?.startsWith("msg_")) {
        items.push({
          type: "message",
          role: "assistant",
          id: block.textSignature,
          status: "completed",
          content: [{ type: "output_text", text: block.text, annotations: [] }],
        });
      } else {
        items.push({ role: "assistant", content: block.text });
      }
    } else {
      items.push({
        type: "function_call",
        call_id: block.id,
        name: block.name,
        arguments: JSON.stringify(block.arguments),
      });
    }
  }
  return items;
}

/**
 * Converts normalised messages (see `normalizeMessagesForProvider`) to Responses API input items.
 * User text and images become `input_text` / `input_image`; assistant text becomes an output
 * message (with its `msg_` id when it came from the same model) and tool calls `function_call`
 * items; this model's reasoning items, stored as the thinking signature, are replayed with their
 * encrypted content; tool results become `function_call_output` (a list when they hold images).
 * Pure.
 */
export function convertToOpenAIResponsesInput(
  messages: readonly Message[],
  model: Model,
): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      items.push({ role: "user", content: userContent(message.content) });
    } else if (message.role === "assistant") {
      items.push(...assistantItems(message, model));
    } else {
      const hasImages = message.content.some((block) => block.type === "image");
      const text = message.content
        .filter((block): block is TextContent => block.type === "text")
        .map((block) => block.text)
        .join("\n");
      const output: string | ResponseFunctionCallOutputItemList = hasImages
        ? message.content.map((block) =>
            block.type === "text"
              ? { type: "input_text", text: block.text }
              : { type: "input_image", image_url: imageUrl(block), detail: "auto" },
          )
        : text;
      items.push({ type: "function_call_output", call_id: message.toolCallId, output });
    }
  }
  return items;
}
