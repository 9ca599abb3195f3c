import type { SystemMessage, TextContent, Tool } from "@arbor/providers";

interface RoleCarrier {
  role: string;
}

function isSystemMessage(message: RoleCarrier): message is SystemMessage {
  return message.role === "system";
}

/** Joins the text blocks of a system message's content (a string is returned as is). */
export function systemContentText(content: string | TextContent[], separator = "\n"): string {
  if (typeof content === "string") return content;
  const texts: string[] = [];
  for (const block of content) if (block.type === "text") texts.push(block.text);
  return texts.join(separator);
}

/**
 * Resolves the tool loadout after applying every system message's `toolsRemoved` then `toolsAdded`,
 * in transcript order. A tool added twice keeps its first position and its latest declaration.
 */
export function resolveCurrentTools(messages: readonly RoleCarrier[]): Tool[] {
  const tools = new Map<string, Tool>();
  for (const message of messages) {
    if (!isSystemMessage(message)) continue;
    for (const removed of message.toolsRemoved ?? []) tools.delete(removed.name);
    for (const added of message.toolsAdded ?? []) tools.set(added.name, added);
  }
  return [...tools.values()];
}

/**
 * Replays every system message of a transcript into one system message that holds the current prompt
 * and tools, the way pi does:
 * - non-empty `content` texts are joined with a blank line, in order;
 * - `sections` are patched by name (`null` deletes a section);
 * - tools are resolved with {@link resolveCurrentTools};
 * - the timestamp is the first system message's.
 *
 * Returns `undefined` when the transcript has no system message and no tools. Pure: never mutates.
 */
export function replaySystemMessages(messages: readonly RoleCarrier[]): SystemMessage | undefined {
  const contentParts: string[] = [];
  const sections = new Map<string, string>();
  let timestamp: number | undefined;
  for (const message of messages) {
    if (!isSystemMessage(message)) continue;
    timestamp ??= message.timestamp;
    const text = systemContentText(message.content ?? "");
    if (text.length > 0) contentParts.push(text);
    for (const [name, value] of Object.entries(message.sections ?? {})) {
      if (value === null) sections.delete(name);
      else sections.set(name, value);
    }
  }
  const tools = resolveCurrentTools(messages);
  if (timestamp === undefined && tools.length === 0) return undefined;
  // Key order matches pi's (role, content, sections, toolsAdded, timestamp) so stored JSON is identical.
  return {
    role: "system",
    content: contentParts.join("\n\n"),
    ...(sections.size > 0 ? { sections: Object.fromEntries(sections) } : {}),
    ...(tools.length > 0 ? { toolsAdded: tools } : {}),
    timestamp: timestamp ?? 0,
  };
}

/**
 * Renders a system message as the full prompt text: its content, then each non-null section, joined
 * by blank lines (empty parts skipped).
 */
export function renderSystemPrompt(message: SystemMessage): string {
  const parts = [systemContentText(message.content ?? "")];
  for (const value of Object.values(message.sections ?? {})) if (value !== null) parts.push(value);
  return parts.filter((part) => part.length > 0).join("\n\n");
}
