import type { SessionEntry } from "@arbor/session-store";
import { clip, previewMessage } from "../format/message-preview";

/** `kind` and one-line text of an entry, for tree listings. */
export interface EntryDescription {
  kind: string;
  text: string;
}

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block: { type?: string; text?: string }) => (block?.type === "text" ? block.text : ""))
    .join(" ");
}

/** Describes any entry type in one line (unknown types show their type name). */
export function describeEntry(entry: SessionEntry, width: number): EntryDescription {
  switch (entry.type) {
    case "message":
      return { kind: entry.message.role, text: previewMessage(entry.message, width) };
    case "model_change":
      return { kind: "model", text: `${entry.provider}/${entry.modelId}` };
    case "thinking_level_change":
      return { kind: "thinking", text: entry.thinkingLevel };
    case "compaction":
      return {
        kind: "◆ compaction",
        text: clip(
          `kept from ${entry.firstKeptEntryId}, ~${entry.tokensBefore} tokens before: ${entry.summary}`,
          width,
        ),
      };
    case "branch_summary":
      return { kind: "↩ branch", text: clip(`summary of ${entry.fromId}: ${entry.summary}`, width) };
    case "label":
      return {
        kind: "label",
        text: entry.label ? `"${entry.label}" → ${entry.targetId}` : `cleared on ${entry.targetId}`,
      };
    case "session_info":
      return { kind: "name", text: entry.name ? `"${entry.name}"` : "(cleared)" };
    case "custom":
      return { kind: "custom", text: entry.customType };
    case "custom_message":
      return { kind: "custom msg", text: clip(`[${entry.customType}] ${contentText(entry.content)}`, width) };
    case "context_edit":
      return {
        kind: "context edit",
        text: entry.replacement === null ? `hides ${entry.targetId}` : `replaces ${entry.targetId}`,
      };
    case "usage":
      return { kind: "usage", text: `${entry.kind} ${entry.provider}/${entry.model}` };
    default:
      return { kind: (entry as { type: string }).type, text: "" };
  }
}
