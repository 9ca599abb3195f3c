import type { AssistantMessage } from "@arbor/providers";

/** The text blocks of an assistant message, joined by blank lines (thinking and tool calls left out). */
export function assistantText(message: AssistantMessage | undefined): string {
  if (message === undefined) return "";
  return message.content
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("\n\n");
}
