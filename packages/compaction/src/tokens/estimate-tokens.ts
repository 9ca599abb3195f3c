import type { AgentMessage } from "@arbor/agent-loop";

/** Characters counted for one image block by {@link estimateTokens} (1200 tokens at chars/4). */
export const ESTIMATED_IMAGE_CHARS = 4800;

interface ContentBlockLike {
  type?: unknown;
  text?: unknown;
}

function contentChars(content: unknown): number {
  if (typeof content === "string") return content.length;
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const block of content as ContentBlockLike[]) {
    if (block === null || typeof block !== "object") continue;
    if (block.type === "text" && typeof block.text === "string") chars += block.text.length;
    else if (block.type === "image") chars += ESTIMATED_IMAGE_CHARS;
  }
  return chars;
}

function lengthOf(value: unknown): number {
  return typeof value === "string" ? value.length : 0;
}

function jsonLength(value: unknown): number {
  const json = JSON.stringify(value);
  return json === undefined ? 0 : json.length;
}

function assistantChars(content: unknown): number {
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const block of content as Array<Record<string, unknown>>) {
    if (block === null || typeof block !== "object") continue;
    if (block.type === "text") chars += lengthOf(block.text);
    else if (block.type === "thinking") chars += lengthOf(block.thinking);
    else if (block.type === "toolCall") chars += lengthOf(block.name) + jsonLength(block.arguments);
  }
  return chars;
}

function systemChars(message: Record<string, unknown>): number {
  let chars = contentChars(message.content);
  const sections = message.sections;
  if (sections !== null && typeof sections === "object") {
    for (const section of Object.values(sections as Record<string, unknown>)) chars += lengthOf(section);
  }
  if (message.toolsAdded) chars += jsonLength(message.toolsAdded);
  return chars;
}

/**
 * Estimates the tokens of one message with pi's chars/4 heuristic (`Math.ceil(chars / 4)`):
 * - `user`, `custom`, `toolResult`: text characters, plus {@link ESTIMATED_IMAGE_CHARS} per image block;
 * - `assistant`: text + thinking characters, plus `name.length + JSON.stringify(arguments).length` per tool call;
 * - `system`: content (as above) + every non-null section + `JSON.stringify(toolsAdded).length`
 *   (`toolsRemoved` is not counted);
 * - `bashExecution`: `command.length + output.length`;
 * - `branchSummary`, `compactionSummary`: the summary's length (the wrapper text is not counted);
 * - any other role: 0.
 *
 * Equal to pi 1.6.0's `estimateTokens` for every well-formed message; malformed fields (missing text,
 * null content) count as empty instead of throwing. Pure: never mutates, never throws.
 */
export function estimateTokens(message: AgentMessage): number {
  const record = message as unknown as Record<string, unknown>;
  let chars: number;
  switch (record.role) {
    case "system":
      chars = systemChars(record);
      break;
    case "user":
    case "custom":
    case "toolResult":
      chars = contentChars(record.content);
      break;
    case "assistant":
      chars = assistantChars(record.content);
      break;
    case "bashExecution":
      chars = lengthOf(record.command) + lengthOf(record.output);
      break;
    case "branchSummary":
    case "compactionSummary":
      chars = lengthOf(record.summary);
      break;
    default:
      return 0;
  }
  return Math.ceil(chars / 4);
}
