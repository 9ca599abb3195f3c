/** Small text helpers for the offline summarizer. */

/** Collapses whitespace runs to one space and trims. */
export function squash(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Cuts `text` to at most `max` characters, ending with `…` when cut (never splits a surrogate pair). */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end).trimEnd()}…`;
}

/** The first non-empty line of `text`, trimmed ("" when none). */
export function firstLine(text: string): string {
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (trimmed.length > 0) return trimmed;
  }
  return "";
}

/** Splits prose into sentences (on `.`, `!`, `?`, `。`, `！`, `？` and line breaks), trimmed, non-empty. */
export function sentences(text: string): string[] {
  const result: string[] = [];
  for (const piece of text.split(/(?<=[.!?。！？])\s+|\n+/)) {
    const sentence = piece.trim().replace(/^[-*•]\s+/, "");
    if (sentence.length > 0) result.push(sentence);
  }
  return result;
}

/** Joins the text blocks of a message content (a string is returned as is). */
export function contentToText(content: unknown, separator = "\n"): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts: string[] = [];
  for (const block of content as Array<{ type?: unknown; text?: unknown }>) {
    if (block && block.type === "text" && typeof block.text === "string") texts.push(block.text);
  }
  return texts.join(separator);
}

/** Appends `item` to `list` unless an equal item (case- and space-insensitive) is already there. */
export function pushUnique(list: string[], item: string): void {
  const key = squash(item).toLowerCase();
  if (key.length === 0) return;
  if (!list.some((existing) => squash(existing).toLowerCase() === key)) list.push(item);
}
