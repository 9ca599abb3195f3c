import type { SessionEntry } from "@arbor/session-store";
import { clip, previewMessage } from "../format/message-preview";

/** `kind` and one-line text of an entry, for tree listings. */
export interface EntryDescription {
  kind: string;
  text: string;
}

/** The blocks' texts between spaces, as parts (as `join` would: a missing text is empty). */
function contentParts(content: unknown): string[] {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  const parts: string[] = [];
  for (const block of content as { type?: string; text?: string }[]) {
    if (parts.length > 0) parts.push(" ");
    parts.push(block?.type === "text" ? String(block.text ?? "") : "");
  }
  return parts;
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
          [
            `kept from ${entry.firstKeptEntryId}, ~${entry.tokensBefore} tokens before: `,
            String(entry.summary),
          ],
          width,
        ),
      };
    case "branch_summary":
      return { kind: "↩ branch", text: clip([`summary of ${entry.fromId}: `, String(entry.summary)], width) };
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
      return {
        kind: "custom msg",
        text: clip([`[${entry.customType}] `, ...contentParts(entry.content)], width),
      };
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
