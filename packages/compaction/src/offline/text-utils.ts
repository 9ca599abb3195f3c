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

/**
 * Cuts `text` (one line) to at most `max` characters at a clean place: after the last whole sentence
 * that fits (then ` …` is appended), else at the last word boundary (then `…`). Text that fits is
 * returned unchanged.
 */
export function clipAtBoundary(text: string, max: number): string {
  if (text.length <= max) return text;
  let kept = "";
  for (const sentence of text.split(/(?<=[.!?。！？])\s+/)) {
    const next = kept ? `${kept} ${sentence}` : sentence;
    if (next.length + 2 > max) break;
    kept = next;
  }
  if (kept.length >= max / 3) return `${kept} …`;
  const head = text.slice(0, Math.max(0, max - 1));
  const space = head.lastIndexOf(" ");
  const cut = space >= max / 2 ? head.slice(0, space) : head;
  return clip(`${cut.replace(/[\s,;:(–-]+$/, "")}…`, max);
}

/**
 * Removes markdown emphasis (`**bold**`, `*em*`, stray `**`) and a heading marker; code spans and
 * underscores (identifiers such as `__init__`) are left alone.
 */
export function stripMarkdown(text: string): string {
  return text
    .replace(/^#{1,6}\s+/, "")
    .replace(/\*\*(.+?)\*\*/g, "$1")
    .replace(/(^|[^\w*`])\*(?!\s)([^*\n]+?)\*(?![\w*])/g, "$1$2")
    .replace(/\*\*/g, "")
    .trim();
}

/** A line that is not prose: a list item, table row, heading, quote, fence, rule or a bold-only label. */
function isStructureLine(line: string): boolean {
  return (
    /^(?:[-*+•]\s|\d+[.)]\s|\||#{1,6}\s|>|```|~~~|---+$|\*\*\*+$)/.test(line) ||
    /^\*\*[^*]+\*\*:?$/.test(line)
  );
}

/**
 * The prose paragraphs of a markdown message, in order, each as a list of sentences: list items,
 * tables, headings, code blocks and bold-only labels are skipped; emphasis is stripped. A paragraph's
 * last sentence is dropped when it ends with `:` and more content follows (it introduces a list, a
 * table or code that is not kept).
 */
export function proseParagraphs(text: string): string[][] {
  const paragraphs: string[][] = [];
  let inFence = false;
  let paragraph: string[] = [];
  let pendingColon = false;
  const dropPendingColon = () => {
    if (!pendingColon) return;
    paragraphs.at(-1)?.pop();
    if (paragraphs.at(-1)?.length === 0) paragraphs.pop();
    pendingColon = false;
  };
  const flush = () => {
    if (paragraph.length === 0) return;
    const found = sentences(squash(paragraph.join(" ")))
      .map(stripMarkdown)
      .filter(Boolean);
    paragraph = [];
    if (found.length > 0) paragraphs.push(found);
    pendingColon = found.at(-1)?.endsWith(":") ?? false;
  };
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.length === 0) {
      flush();
      continue;
    }
    dropPendingColon();
    const fence = /^(```|~~~)/.test(line);
    if (fence) inFence = !inFence;
    if (fence || inFence || isStructureLine(line)) {
      flush();
      dropPendingColon();
      continue;
    }
    paragraph.push(line);
  }
  flush();
  return paragraphs;
}

/**
 * The first one or two sentences of a message's first prose paragraph as one line, cut cleanly to
 * `max` characters. Falls back to the first list item (without marker) when the message has no prose.
 */
export function leadSentences(text: string, max: number, count = 2): string {
  const picked = (proseParagraphs(text)[0] ?? []).slice(0, count);
  if (picked.length === 0) {
    const item = text
      .split("\n")
      .map((line) => line.trim())
      .find((line) => /^(?:[-*+•]|\d+[.)])\s+/.test(line));
    return item ? clipAtBoundary(stripMarkdown(item.replace(/^(?:[-*+•]|\d+[.)])\s+/, "")), max) : "";
  }
  return clipAtBoundary(picked.join(" "), max);
}
