import type { AgentMessage } from "@arbor/agent-loop";
import type { AssistantMessage } from "@arbor/providers";
import type { ContextEditReplacement, SessionProjection } from "@arbor/session-store";

/** One planned mask: the entry whose tool output is replaced, and by what. */
export interface MaskEdit {
  targetId: string;
  replacement: ContextEditReplacement;
  /** Tokens the edit removes from the context (output tokens minus placeholder tokens). */
  savedTokens: number;
}

/** Options of {@link planMaskEdits}. */
export interface PlanMaskOptions {
  countTokens: (message: AgentMessage) => number;
  minToolResultTokens: number;
  protectRecentTokens: number;
  /** Stop once this many tokens are saved (Infinity: mask everything eligible). */
  wantedSavingTokens: number;
  /**
   * Also shorten the arguments of old tool calls (an `edit`'s old and new text, a `write`'s content)
   * of at least `minToolResultTokens`: every string argument but `path` / `file_path` becomes a
   * placeholder. Default false.
   */
  maskToolArguments?: boolean;
}

const ARGUMENT_PLACEHOLDER = "[argument hidden by the context policy]";
const KEPT_ARGUMENTS = new Set(["path", "file_path", "command"]);

/** An assistant message with the large arguments of its tool calls replaced, or undefined when none is. */
function maskArguments(message: AssistantMessage, minTokens: number): AssistantMessage | undefined {
  let changed = false;
  const content = message.content.map((block) => {
    if (block.type !== "toolCall") return block;
    if (Math.ceil(JSON.stringify(block.arguments ?? {}).length / 4) < minTokens) return block;
    const args: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(block.arguments ?? {})) {
      const hide = typeof value === "string" && !KEPT_ARGUMENTS.has(key) && value.length > 200;
      args[key] = hide ? ARGUMENT_PLACEHOLDER : value;
      changed ||= hide;
    }
    return { ...block, arguments: args };
  });
  return changed ? { ...message, content } : undefined;
}

/** The placeholder text of a masked tool output (its tool, size and first line stay visible). */
export function maskPlaceholder(toolName: string, tokens: number, text: string): string {
  const firstLine = (text.split("\n").find((line) => line.trim() !== "") ?? "").trim().slice(0, 160);
  return `[output of ${toolName} hidden by the context policy: about ${tokens} tokens; it began with: ${firstLine}]`;
}

const PLACEHOLDER_START = "[output of ";

/**
 * True when `message` is one `planMaskEdits` would mask once it leaves the protected tail: a tool
 * output of `minToolResultTokens` or more not masked yet, or (with `maskToolArguments`) an assistant
 * message whose tool calls have large string arguments. Pure.
 */
export function isMaskable(
  message: AgentMessage,
  options: Pick<PlanMaskOptions, "countTokens" | "minToolResultTokens" | "maskToolArguments">,
): boolean {
  if (message.role === "assistant")
    return (
      options.maskToolArguments === true && maskArguments(message, options.minToolResultTokens) !== undefined
    );
  if (message.role !== "toolResult") return false;
  const first = message.content[0];
  if (first?.type === "text" && first.text.startsWith(PLACEHOLDER_START)) return false;
  return options.countTokens(message) >= options.minToolResultTokens;
}

/**
 * Plans masks: the oldest tool outputs of the projection (after its latest compaction), each at
 * least `minToolResultTokens`, outside the newest `protectRecentTokens`, not masked yet, oldest
 * first, until `wantedSavingTokens` are saved (with `maskToolArguments`, large arguments of old
 * tool calls too). Pure; never throws.
 */
export function planMaskEdits(projection: SessionProjection, options: PlanMaskOptions): MaskEdit[] {
  const sizes = projection.entries.map((entry) =>
    entry.messages.reduce((sum, message) => sum + options.countTokens(message), 0),
  );
  let recent = 0;
  let protectedFrom = projection.entries.length;
  for (let index = projection.entries.length - 1; index >= 0; index--) {
    recent += sizes[index] ?? 0;
    if (recent > options.protectRecentTokens) break;
    protectedFrom = index;
  }
  const edits: MaskEdit[] = [];
  let saved = 0;
  for (let index = 0; index < protectedFrom && saved < options.wantedSavingTokens; index++) {
    const projected = projection.entries[index];
    if (projected === undefined || projected.sourceEntry.type !== "message") continue;
    const message = projected.messages[0];
    if (projected.messages.length !== 1) continue;
    const tokens = sizes[index] ?? 0;
    if (message?.role === "assistant" && options.maskToolArguments === true) {
      const masked = maskArguments(message, options.minToolResultTokens);
      if (masked === undefined) continue;
      const savedTokens = tokens - options.countTokens(masked);
      if (savedTokens <= 0) continue;
      edits.push({
        targetId: projected.sourceEntry.id,
        replacement: { content: masked.content },
        savedTokens,
      });
      saved += savedTokens;
      continue;
    }
    if (message?.role !== "toolResult") continue;
    if (tokens < options.minToolResultTokens) continue;
    const text = message.content.map((block) => (block.type === "text" ? block.text : "[image]")).join("\n");
    if (text.startsWith(PLACEHOLDER_START)) continue;
    const placeholder = maskPlaceholder(message.toolName, tokens, text);
    const savedTokens =
      tokens - options.countTokens({ ...message, content: [{ type: "text", text: placeholder }] });
    if (savedTokens <= 0) continue;
    edits.push({ targetId: projected.sourceEntry.id, replacement: { content: placeholder }, savedTokens });
    saved += savedTokens;
  }
  return edits;
}
