import type { ImageContent, TextContent } from "../message";

/** Text that stands in for images sent to a model without image input. */
export const IMAGE_OMITTED_TEXT = "(image omitted: this model does not accept images)";

/**
 * Replaces each run of consecutive images by one placeholder text block. Returns the input array
 * itself when it has no image. Pure.
 */
export function replaceUnsupportedImages(
  content: Array<TextContent | ImageContent>,
): Array<TextContent | ImageContent> {
  if (!content.some((block) => block.type === "image")) return content;
  const result: Array<TextContent | ImageContent> = [];
  for (const block of content) {
    if (block.type !== "image") {
      result.push(block);
      continue;
    }
    const previous = result[result.length - 1];
    if (previous?.type === "text" && previous.text === IMAGE_OMITTED_TEXT) continue;
    result.push({ type: "text", text: IMAGE_OMITTED_TEXT });
  }
  return result;
}
