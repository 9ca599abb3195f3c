import type { AgentSessionEvent } from "@arbor/runtime";
import { formatExtensionNotice } from "../agent/format-extension-notice";
import { formatInteger } from "../format/format-number";
import { clip, describeToolCall } from "../format/message-preview";
import { sanitizeTerminalText } from "../format/sanitize-terminal-text";
import { TerminalTextStream } from "../format/terminal-text-stream";
import { formatCompactDiff } from "./format-compact-diff";
import { type Spinner, startSpinner } from "./spinner";
import type { TerminalStyle } from "./terminal-style";

/** Where the renderer writes, and how. */
export interface RenderTarget {
  write(text: string): void;
  style: TerminalStyle;
  /** Terminal width (tool lines are clipped to it). */
  columns: number;
  /** Draw spinners (only on a terminal). */
  spinners: boolean;
}

function firstLines(content: ReadonlyArray<{ type: string; text?: string }>): {
  first: string;
  more: number;
} {
  const text = content
    .filter((block) => block.type === "text")
    .map((block) => block.text ?? "")
    .join("\n")
    .trim();
  const lines = text.split("\n");
  return { first: lines[0] ?? "", more: Math.max(0, lines.length - 1) };
}

/** Untrusted text (from the model, a tool, a provider, an extension) made inert and kept on one line. */
function inert(text: string): string {
  return sanitizeTerminalText(text).replace(/\s*\n\s*/g, " ");
}

/**
 * Turns session events into terminal output: streamed assistant text, one line per tool call and
 * per result (an edit's changed lines below it, see `formatCompactDiff`), compaction notices, errors
 * in red. On a terminal a spinner with the elapsed time runs
 * while waiting for the model's first token, while a tool runs and while a summary is written.
 * Keeps track of whether the cursor is mid-line so that notices always start on a fresh line.
 * Every string an event carries is made inert (`sanitizeTerminalText`) before it is styled, and
 * every line written keeps only Arbor's own styling (SGR) besides plain text.
 */
export class SessionEventRenderer {
  private midLine = false;
  private spinner: Spinner | undefined;
  private thinkingShown = false;
  /** The streamed answer, sanitized with escape sequences split across deltas held back. */
  private answer = new TerminalTextStream();

  constructor(private readonly target: RenderTarget) {}

  /** Stops a running spinner (before the caller prints something itself). */
  stopSpinner(): void {
    this.spinner?.stop();
    this.spinner = undefined;
  }

  /**
   * Starts a spinner with `label` and the elapsed time, drawn after `delayMs` (default at once). Off
   * a terminal a plain line is printed instead, unless `quiet` (a wait that needs no line of its own
   * there).
   */
  startSpinner(label: string, options: { quiet?: boolean; delayMs?: number } = {}): void {
    this.stopSpinner();
    this.newLine();
    if (this.target.spinners) {
      this.spinner = startSpinner((chunk) => this.target.write(chunk), label, Date.now, options.delayMs ?? 0);
    } else if (!options.quiet) this.line(this.target.style.dim(label));
  }

  /** Writes one full line (on a fresh line); escape sequences other than styling (SGR) are removed. */
  line(text: string): void {
    this.stopSpinner();
    this.newLine();
    this.target.write(`${sanitizeTerminalText(text, { keepStyles: true })}\n`);
  }

  handle(event: AgentSessionEvent): void {
    const { style } = this.target;
    switch (event.type) {
      case "turn_start":
        this.thinkingShown = false;
        // Until the first token: the request is on its way, the model reads the context.
        this.startSpinner("Waiting for the model…", { quiet: true, delayMs: 300 });
        return;
      case "agent_end":
        this.stopSpinner();
        return;
      case "message_update": {
        const provider = event.assistantMessageEvent;
        if (provider.type === "text-delta") {
          this.writeAnswer(this.answer.push(provider.delta));
        } else if (provider.type === "thinking-delta" && !this.thinkingShown) {
          this.thinkingShown = true;
          this.line(style.dim("(thinking…)"));
        }
        return;
      }
      case "message_end":
        if (event.message.role === "assistant") {
          this.writeAnswer(this.answer.flush());
          this.newLine();
          if (event.message.stopReason === "error") {
            this.line(style.red(`✗ ${inert(event.message.errorMessage ?? "the model request failed")}`));
          } else if (event.message.stopReason === "aborted") {
            this.line(style.yellow("(aborted)"));
          }
        }
        return;
      case "tool_execution_start":
        this.line(style.cyan(`● ${describeToolCall(event.toolName, event.args, this.target.columns - 4)}`));
        this.startSpinner(`Running ${inert(event.toolName)}…`, { quiet: true, delayMs: 1000 });
        return;
      case "tool_execution_end": {
        const { first, more } = firstLines(event.result.content);
        const suffix = more > 0 ? style.dim(` (+${more} lines)`) : "";
        const text = clip(first || "(no output)", Math.max(20, this.target.columns - 16));
        this.line(
          event.isError ? style.red(`  ✗ ${text}`) : `  ${style.green("✓")} ${style.dim(text)}${suffix}`,
        );
        const diff = (event.result.details as { diff?: unknown } | undefined)?.diff;
        if (!event.isError && event.toolName === "edit" && typeof diff === "string") {
          for (const line of formatCompactDiff(diff, style, Math.max(20, this.target.columns - 6))) {
            this.line(`    ${line}`);
          }
        }
        return;
      }
      case "compaction_start":
        this.startSpinner(`Compacting the context (${event.reason})…`);
        return;
      case "compaction_fallback":
        this.line(
          style.yellow(
            `the model summary failed (${inert(event.errorMessage)}); using the offline summarizer`,
          ),
        );
        return;
      case "compaction_end":
        if (event.result) {
          const { result } = event;
          this.line(
            style.magenta(
              `◆ compacted (${event.reason}, ${result.summarizer} summary): ~${formatInteger(result.tokensBefore)} → ~${formatInteger(result.estimatedTokensAfter)} tokens`,
            ),
          );
        } else if (event.errorMessage)
          this.line(style.red(`✗ compaction failed: ${inert(event.errorMessage)}`));
        else this.stopSpinner();
        return;
      case "session_error":
        this.line(style.red(`✗ ${inert(event.error.message)}`));
        return;
      case "hook_error":
        this.line(style.yellow(inert(event.error.message)));
        return;
      case "extension_notice": {
        const line = inert(formatExtensionNotice(event));
        this.line(
          event.level === "error" ? style.red(line) : event.level === "warning" ? style.yellow(line) : line,
        );
        return;
      }
      case "model_select":
        this.line(style.dim(`model: ${inert(`${event.model.provider}/${event.model.id}`)}`));
        return;
      default:
        return;
    }
  }

  private writeAnswer(text: string): void {
    if (text.length === 0) return;
    this.stopSpinner();
    this.target.write(text);
    this.midLine = !text.endsWith("\n");
  }

  private newLine(): void {
    if (this.midLine) this.target.write("\n");
    this.midLine = false;
  }
}
