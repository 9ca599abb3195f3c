import type { AgentMessage } from "@arbor/agent-loop";
import { calculateContextTokens, estimateTokens } from "@arbor/compaction";
import type { ExportBlock, ExportMessage } from "./export-data";

/** Default of {@link ClipOptions.clipChars}: longer texts are clipped in an export. */
export const DEFAULT_EXPORT_CLIP_CHARS = 20_000;

/** How much of each text an export keeps. */
export interface ClipOptions {
  /** Texts longer than this are cut, with a note saying how many characters were left out. */
  clipChars: number;
}

/** `text` cut to `clipChars` characters, with a note of what was left out. Pure. */
export function clipText(text: string, options: ClipOptions): string {
  if (text.length <= options.clipChars) return text;
  const omitted = text.length - options.clipChars;
  return `${text.slice(0, options.clipChars)}\n… [${omitted.toLocaleString("en-US")} more characters not exported]`;
}

function stringOf(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function jsonOf(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

function contentBlocks(content: unknown, options: ClipOptions): ExportBlock[] {
  if (typeof content === "string")
    return content === "" ? [] : [{ type: "text", text: clipText(content, options) }];
  if (!Array.isArray(content)) return [];
  const blocks: ExportBlock[] = [];
  for (const raw of content) {
    const block = (raw ?? {}) as Record<string, unknown>;
    switch (block.type) {
      case "text":
        blocks.push({ type: "text", text: clipText(stringOf(block.text), options) });
        break;
      case "thinking":
        blocks.push({
          type: "thinking",
          text: block.redacted === true ? "(redacted thinking)" : clipText(stringOf(block.thinking), options),
        });
        break;
      case "toolCall":
        blocks.push({
          type: "toolCall",
          id: stringOf(block.id),
          name: stringOf(block.name),
          args: clipText(jsonOf(block.arguments ?? {}), options),
        });
        break;
      case "image":
        blocks.push({
          type: "image",
          mimeType: stringOf(block.mimeType),
          bytes: Math.floor((stringOf(block.data).length * 3) / 4),
        });
        break;
      default:
        blocks.push({ type: "text", text: clipText(jsonOf(raw), options) });
    }
  }
  return blocks;
}

function systemBlocks(record: Record<string, unknown>, options: ClipOptions): ExportBlock[] {
  const blocks = contentBlocks(record.content, options);
  const notes: string[] = [];
  const sections = record.sections;
  if (sections && typeof sections === "object") {
    for (const [name, value] of Object.entries(sections as Record<string, unknown>)) {
      notes.push(value === null ? `section "${name}" removed` : `section "${name}":\n${stringOf(value)}`);
    }
  }
  const added = Array.isArray(record.toolsAdded) ? record.toolsAdded : [];
  const removed = Array.isArray(record.toolsRemoved) ? record.toolsRemoved : [];
  if (added.length > 0) notes.push(`tools added: ${added.map((tool) => stringOf(tool?.name)).join(", ")}`);
  if (removed.length > 0)
    notes.push(`tools removed: ${removed.map((tool) => stringOf(tool?.name)).join(", ")}`);
  if (notes.length > 0) blocks.push({ type: "text", text: clipText(notes.join("\n\n"), options) });
  return blocks;
}

/**
 * A message in the display form of an export: its content as text, thinking, tool-call and image
 * blocks (image data is not exported, only its type and size), its estimated tokens (pi's chars/4,
 * `estimateTokens`) and, for an assistant, the context size its usage reports. Texts are clipped per
 * `options`. Pure; never throws on a malformed message (unknown shapes are shown as JSON).
 */
export function toExportMessage(message: AgentMessage, options: ClipOptions): ExportMessage {
  const record = message as unknown as Record<string, unknown>;
  const role = typeof record.role === "string" ? record.role : "unknown";
  const result: ExportMessage = { role, blocks: [], tokens: estimateTokens(message) };
  switch (role) {
    case "user":
    case "assistant":
    case "toolResult":
    case "custom":
      result.blocks = contentBlocks(record.content, options);
      break;
    case "system":
      result.blocks = systemBlocks(record, options);
      break;
    case "bashExecution":
      result.blocks = [
        {
          type: "text",
          text: clipText(`$ ${stringOf(record.command)}\n${stringOf(record.output)}`, options),
        },
      ];
      break;
    case "branchSummary":
    case "compactionSummary":
      result.blocks = [{ type: "text", text: clipText(stringOf(record.summary), options) }];
      break;
    default:
      result.blocks = [{ type: "text", text: clipText(jsonOf(message), options) }];
  }
  if (role === "assistant") {
    const usage = record.usage as Parameters<typeof calculateContextTokens>[0] | undefined;
    if (usage && typeof usage === "object") {
      const total = calculateContextTokens(usage);
      if (Number.isFinite(total) && total > 0) result.reportedContext = total;
    }
    const provider = stringOf(record.provider);
    const model = stringOf(record.model);
    if (model) result.model = provider ? `${provider}/${model}` : model;
    if (typeof record.stopReason === "string") result.stopReason = record.stopReason;
  }
  if (role === "toolResult") {
    result.toolName = stringOf(record.toolName);
    result.toolCallId = stringOf(record.toolCallId);
    result.isError = record.isError === true;
  }
  if (role === "custom") result.customType = stringOf(record.customType);
  return result;
}
