import type { AgentMessage } from "@arbor/agent-loop";
import { flattenText } from "./flatten-text";

/** The first `count` characters of the concatenation of `parts` (slices of the parts, none copied whole). */
function headOf(parts: readonly string[], count: number): string {
  let head = "";
  for (const part of parts) {
    if (part.length >= count) return head + part.slice(0, count);
    head += part;
    count -= part.length;
  }
  return head;
}

/**
 * Makes `text` one inert line for a listing: escape and control sequences removed (see
 * `sanitizeTerminalText`), whitespace collapsed, cut to `width` characters with an ellipsis. `text`
 * may be given in parts: the result is that of their concatenation, which is never built whole.
 *
 * Works on a growing prefix of `text` (a 50 KB tool output is not sanitized whole to show 80
 * characters). The result equals that of the whole text: cutting can only change the end of the
 * prefix's flattened form (a sequence, CR or whitespace run cut in two, an unterminated OSC running to
 * the cut, half a surrogate pair), so once that form is longer than `width + 2` its first `width - 1`
 * characters are final; otherwise the prefix grows, up to the whole text.
 */
export function clip(text: string | readonly string[], width: number): string {
  const parts = typeof text === "string" ? [text] : text;
  let length = 0;
  for (const part of parts) length += part.length;
  for (let take = Math.max(256, width * 4); ; take *= 4) {
    const whole = take >= length;
    const flat = flattenText(whole ? parts.join("") : headOf(parts, take));
    if (whole) return flat.length <= width ? flat : `${flat.slice(0, Math.max(0, width - 1))}…`;
    if (flat.length > width + 2) return `${flat.slice(0, Math.max(0, width - 1))}…`;
  }
}

/**
 * {@link clip} of a text of which only a prefix is known (given as `text`, in parts or not): the
 * result `clip` would give for any text that starts with this prefix, or `undefined` when the prefix
 * does not decide it (read more of the text and ask again). Decided once the prefix's flattened form
 * is longer than `width + 2`, by the argument given for `clip`.
 */
export function clipPrefix(text: string | readonly string[], width: number): string | undefined {
  const flat = flattenText(typeof text === "string" ? text : text.join(""));
  return flat.length > width + 2 ? `${flat.slice(0, Math.max(0, width - 1))}…` : undefined;
}

/** The text of message content as parts: a string, or the blocks' texts (`[image]` for an image) between spaces. */
function contentParts(content: unknown): string[] {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  const parts: string[] = [];
  for (const block of content as { type?: string; text?: string }[]) {
    if (parts.length > 0) parts.push(" ");
    // As `join` would: a missing text is empty, any other value its string form.
    parts.push(block?.type === "text" ? String(block.text ?? "") : block?.type === "image" ? "[image]" : "");
  }
  return parts;
}

/** True when the concatenation of `parts` is not empty. */
function hasText(parts: readonly string[]): boolean {
  return parts.some((part) => part.length > 0);
}

/**
 * `name(arg=value, …)` for a tool call, with the most telling argument first. Arguments that are not
 * an object (a damaged or hostile entry) show as none.
 */
export function describeToolCall(name: string, args: Record<string, unknown>, width = 60): string {
  if (typeof args !== "object" || args === null) args = {};
  const main = args.path ?? args.command ?? args.pattern ?? args.query;
  const shown = typeof main === "string" ? main : Object.keys(args).length > 0 ? JSON.stringify(args) : "";
  const tool = clip(name, 40);
  return `${tool}(${clip(shown, Math.max(8, width - tool.length - 2))})`;
}

/**
 * A one-line description of a message for listings (`inspect`, `tree`, the interactive UI): the
 * role's text, tool calls as `→ name(arg)`, tool results as `✓`/`✗ name: first line`.
 */
export function previewMessage(message: AgentMessage, width = 80): string {
  const record = message as AgentMessage & Record<string, unknown>;
  switch (message.role) {
    case "user":
      return clip(contentParts(message.content), width);
    case "assistant": {
      // A session file is hostile input: content that is not an array (missing, null) previews as
      // no blocks, and a block that is not an object is skipped, instead of failing the listing.
      const blocks = (Array.isArray(message.content) ? message.content : []).filter(
        (block) => typeof block === "object" && block !== null,
      );
      const texts: string[] = [];
      for (const block of blocks) {
        if (block.type !== "text") continue;
        if (texts.length > 0) texts.push(" ");
        texts.push(String(block.text ?? ""));
      }
      const text = clip(texts, width);
      const calls = blocks
        .filter((block) => block.type === "toolCall")
        .map((block) => `→ ${describeToolCall(String(block.name), block.arguments, 40)}`);
      const thinking = blocks.some((block) => block.type === "thinking") ? "(thinking) " : "";
      const error = message.stopReason === "error" ? `[error: ${message.errorMessage ?? "unknown"}] ` : "";
      const aborted = message.stopReason === "aborted" ? "[aborted] " : "";
      return clip(`${error}${aborted}${thinking}${[text, ...calls].filter(Boolean).join(" ")}`, width);
    }
    case "toolResult":
      return clip(
        [`${message.isError ? "✗" : "✓"} ${message.toolName}: `, ...contentParts(message.content)],
        width,
      );
    case "system": {
      const sections = Object.keys(message.sections ?? {});
      const added = message.toolsAdded?.length ?? 0;
      const removed = message.toolsRemoved?.length ?? 0;
      const parts = [
        hasText(contentParts(message.content)) ? clip(contentParts(message.content), 30) : "",
        sections.length > 0 ? `sections: ${sections.join(", ")}` : "",
        added > 0 ? `+${added} tool${added === 1 ? "" : "s"}` : "",
        removed > 0 ? `-${removed} tool${removed === 1 ? "" : "s"}` : "",
      ];
      return clip(parts.filter(Boolean).join("; ") || "(empty system message)", width);
    }
    case "bashExecution":
      return clip(`$ ${message.command} (exit ${message.exitCode ?? "?"})`, width);
    case "custom":
      return clip([`[${message.customType}] `, ...contentParts(message.content)], width);
    case "branchSummary":
      return clip(["branch summary: ", String(message.summary)], width);
    case "compactionSummary":
      return clip(["compaction summary: ", String(message.summary)], width);
    default:
      return clip(`(${String(record.role)})`, width);
  }
}
