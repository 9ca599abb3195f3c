import { sanitizeTerminalText } from "../format/sanitize-terminal-text";

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const CODE_SPAN = /(`+)(?:[^`]|[^`][\s\S]*?[^`])\1(?!`)/g;

function escapeOutsideCodeSpans(line: string): string {
  let result = "";
  let last = 0;
  for (const match of line.matchAll(CODE_SPAN)) {
    result += line.slice(last, match.index).replace(/</g, "&lt;");
    result += match[0];
    last = (match.index ?? 0) + match[0].length;
  }
  return result + line.slice(last).replace(/</g, "&lt;");
}

/**
 * Makes untrusted Markdown (a message from a model, a user or a tool) safe to embed in a Markdown
 * document: escape and control sequences and bidirectional overrides are removed (as on a terminal),
 * `<` outside code is written `&lt;` so that no raw HTML (script, iframe, img) is interpreted, and a
 * code fence left open is closed so that it cannot swallow the rest of the document. The text still
 * reads as Markdown (emphasis, lists, code blocks). Pure.
 */
export function neutralizeMarkdown(text: string): string {
  const lines = sanitizeTerminalText(text).split("\n");
  let fence: string | undefined;
  const out: string[] = [];
  for (const line of lines) {
    const match = FENCE.exec(line);
    if (fence === undefined) {
      if (match) fence = match[1];
      out.push(match ? line : escapeOutsideCodeSpans(line));
    } else {
      const marker = fence as string;
      if (
        match &&
        match[1]?.[0] === marker[0] &&
        (match[1]?.length ?? 0) >= marker.length &&
        line.trim() === match[1]
      ) {
        fence = undefined;
      }
      out.push(line);
    }
  }
  if (fence !== undefined) out.push(fence);
  return out.join("\n");
}

/** A fenced code block around untrusted `text`, with a fence longer than any backtick run in it. Pure. */
export function fencedBlock(text: string, info = ""): string {
  const clean = sanitizeTerminalText(text);
  let longest = 0;
  for (const run of clean.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${clean}\n${fence}`;
}

/** Untrusted text on one line for inline use (headings, list items): inert, no HTML, no line breaks. Pure. */
export function inlineText(text: string): string {
  return sanitizeTerminalText(text).replace(/\s+/g, " ").trim().replace(/</g, "&lt;");
}
