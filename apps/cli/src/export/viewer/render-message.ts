/// <reference lib="dom" />
import type { ExportBlock, ExportMessage } from "../export-data";
import { add, el, formatCount, formatSize } from "./dom";

/** Token figures shown beside a message. */
export interface MessageFigures {
  /** Context total up to and including this message (estimate), or undefined to leave it out. */
  running?: number;
  /** The largest message of the view: the token bar is drawn relative to it. */
  maxTokens: number;
}

const ROLE_TITLES: Record<string, string> = {
  user: "User",
  assistant: "Assistant",
  toolResult: "Tool result",
  system: "System",
  custom: "Custom message",
  bashExecution: "Shell",
  branchSummary: "Branch summary",
  compactionSummary: "Compaction summary",
};

function firstLine(text: string, width: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

function callPreview(args: string): string {
  try {
    const parsed = JSON.parse(args) as Record<string, unknown>;
    const main = parsed.path ?? parsed.command ?? parsed.pattern ?? parsed.query;
    if (typeof main === "string") return firstLine(main, 90);
  } catch {
    // clipped arguments are not JSON: show their start
  }
  return firstLine(args, 90);
}

/** One content block as elements (text as preformatted text; thinking and tool calls folded). */
export function renderBlock(block: ExportBlock): HTMLElement {
  switch (block.type) {
    case "text":
      return el("pre", "text", block.text);
    case "thinking": {
      const details = el("details", "thinking");
      add(details, el("summary", "", `Thinking · ${formatCount(block.text.length)} characters`));
      return add(details, el("pre", "text", block.text));
    }
    case "toolCall": {
      const details = el("details", "call");
      const summary = add(el("summary"), el("span", "call-name", `→ ${block.name}`), " ");
      add(summary, el("code", "call-arg", callPreview(block.args)));
      add(details, summary);
      return add(details, el("pre", "text args", block.args));
    }
    case "image":
      return el(
        "div",
        "image",
        `Image · ${block.mimeType || "unknown type"} · ${formatSize(block.bytes)} (image data is not exported)`,
      );
  }
}

/** The token cells of a message header: a bar, the estimate, the running total, the reported size. */
export function tokenCells(tokens: number, figures: MessageFigures, reported?: number): HTMLElement {
  const cells = el("span", "tokens");
  const bar = el("span", "tokbar");
  const fill = el("i");
  fill.style.width = `${Math.max(figures.maxTokens > 0 ? (tokens / figures.maxTokens) * 100 : 0, tokens > 0 ? 2 : 0)}%`;
  add(bar, fill);
  add(cells, bar, el("span", "tok", `~${formatCount(tokens)} tok`));
  if (figures.running !== undefined) {
    const running = el("span", "run", `Σ ${formatCount(figures.running)}`);
    running.title = "estimated context total up to here";
    add(cells, running);
  }
  if (reported !== undefined) {
    const cell = el("span", "reported", `reported ${formatCount(reported)}`);
    cell.title = "context size reported by the provider for this response";
    add(cells, cell);
  }
  return cells;
}

/**
 * A message card: a header (role, extra facts, tokens) and its blocks. Tool results, system
 * messages and custom messages are folded (`<details>`), with their first line as the summary.
 */
export function renderMessage(message: ExportMessage, figures: MessageFigures, note?: string): HTMLElement {
  const folded = message.role === "toolResult" || message.role === "system";
  const card = el(folded ? "details" : "article", `msg role-${message.role.replace(/[^A-Za-z]/g, "")}`);
  const header = el(folded ? "summary" : "header", "msg-head");
  let title = ROLE_TITLES[message.role] ?? message.role;
  if (message.role === "toolResult") title = `${message.isError ? "✗" : "↳"} ${message.toolName || "tool"}`;
  if (message.role === "custom" && message.customType) title = `Custom · ${message.customType}`;
  add(header, el("span", "role", title));
  if (folded) {
    const text = message.blocks.map((block) => (block.type === "text" ? block.text : "")).join(" ");
    add(header, el("span", "peek", firstLine(text, 120)));
  }
  if (message.model) add(header, el("span", "meta", message.model));
  if (message.stopReason && message.stopReason !== "stop" && message.stopReason !== "toolUse") {
    add(header, el("span", "badge warn", message.stopReason));
  }
  if (note) add(header, el("span", "meta", note));
  add(header, tokenCells(message.tokens, figures, message.reportedContext));
  add(card, header);
  const body = el("div", "msg-body");
  for (const block of message.blocks) add(body, renderBlock(block));
  if (message.blocks.length === 0) add(body, el("p", "empty", "(no content)"));
  return add(card, body);
}
