import type { AgentMessage } from "@arbor/agent-loop";
import { sanitizeTerminalText } from "./sanitize-terminal-text";

/**
 * Makes `text` one inert line for a listing: escape and control sequences removed (see
 * `sanitizeTerminalText`), whitespace collapsed, cut to `width` characters with an ellipsis.
 *
 * Works on a growing prefix of `text` (a 50 KB tool output is not sanitized whole to show 80
 * characters). The result equals that of the whole text: cutting can only change the end of the
 * prefix's flattened form (a sequence, CR or whitespace run cut in two, an unterminated OSC running to
 * the cut, half a surrogate pair), so once that form is longer than `width + 2` its first `width - 1`
 * characters are final; otherwise the prefix grows, up to the whole text.
 */
export function clip(text: string, width: number): string {
  for (let take = Math.max(256, width * 4); ; take *= 4) {
    const whole = take >= text.length;
    const flat = sanitizeTerminalText(whole ? text : text.slice(0, take))
      .replace(/\s+/g, " ")
      .trim();
    if (whole) return flat.length <= width ? flat : `${flat.slice(0, Math.max(0, width - 1))}…`;
    if (flat.length > width + 2) return `${flat.slice(0, Math.max(0, width - 1))}…`;
  }
}

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block: { type?: string; text?: string }) =>
      block?.type === "text" ? (block.text ?? "") : block?.type === "image" ? "[image]" : "",
    )
    .join(" ");
}

/** `name(arg=value, …)` for a tool call, with the most telling argument first. */
export function describeToolCall(name: string, args: Record<string, unknown>, width = 60): string {
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
      return clip(contentText(message.content), width);
    case "assistant": {
      const text = clip(
        message.content
          .filter((block) => block.type === "text")
          .map((block) => block.text)
          .join(" "),
        width,
      );
      const calls = message.content
        .filter((block) => block.type === "toolCall")
        .map((block) => `→ ${describeToolCall(block.name, block.arguments, 40)}`);
      const thinking = message.content.some((block) => block.type === "thinking") ? "(thinking) " : "";
      const error = message.stopReason === "error" ? `[error: ${message.errorMessage ?? "unknown"}] ` : "";
      const aborted = message.stopReason === "aborted" ? "[aborted] " : "";
      return clip(`${error}${aborted}${thinking}${[text, ...calls].filter(Boolean).join(" ")}`, width);
    }
    case "toolResult":
      return clip(
        `${message.isError ? "✗" : "✓"} ${message.toolName}: ${contentText(message.content)}`,
        width,
      );
    case "system": {
      const sections = Object.keys(message.sections ?? {});
      const added = message.toolsAdded?.length ?? 0;
      const removed = message.toolsRemoved?.length ?? 0;
      const parts = [
        contentText(message.content) ? clip(contentText(message.content), 30) : "",
        sections.length > 0 ? `sections: ${sections.join(", ")}` : "",
        added > 0 ? `+${added} tool${added === 1 ? "" : "s"}` : "",
        removed > 0 ? `-${removed} tool${removed === 1 ? "" : "s"}` : "",
      ];
      return clip(parts.filter(Boolean).join("; ") || "(empty system message)", width);
    }
    case "bashExecution":
      return clip(`$ ${message.command} (exit ${message.exitCode ?? "?"})`, width);
    case "custom":
      return clip(`[${message.customType}] ${contentText(message.content)}`, width);
    case "branchSummary":
      return clip(`branch summary: ${message.summary}`, width);
    case "compactionSummary":
      return clip(`compaction summary: ${message.summary}`, width);
    default:
      return clip(`(${String(record.role)})`, width);
  }
}
