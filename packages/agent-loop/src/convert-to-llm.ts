import type { TextContent, TranscriptMessage, UserMessage } from "@arbor/providers";
import type { AgentMessage, BashExecutionMessage } from "./agent-message";

/** Opening of the user message that carries a compaction summary. */
export const COMPACTION_SUMMARY_PREFIX =
  "Earlier turns of this conversation were condensed into the summary below. Treat it as what happened so far:\n\n<summary>\n";
/** Closing of the user message that carries a compaction summary. */
export const COMPACTION_SUMMARY_SUFFIX = "\n</summary>";
/** Opening of the user message that carries a branch summary. */
export const BRANCH_SUMMARY_PREFIX =
  "Before returning here, the conversation explored another branch. Summary of that branch:\n\n<summary>\n";
/** Closing of the user message that carries a branch summary. */
export const BRANCH_SUMMARY_SUFFIX = "\n</summary>";

/** Renders a user-run shell command and its output as the text the model reads. */
export function formatBashExecution(message: BashExecutionMessage): string {
  let text = `The user ran \`${message.command}\`\n`;
  text += message.output.length > 0 ? `\`\`\`\n${message.output}\n\`\`\`` : "(no output)";
  if (message.cancelled) text += "\n\n(the command was cancelled)";
  else if (message.exitCode !== undefined && message.exitCode !== 0)
    text += `\n\nExit code: ${message.exitCode}`;
  if (message.truncated && message.fullOutputPath) {
    text += `\n\n[Output truncated; the full output is in ${message.fullOutputPath}]`;
  }
  return text;
}

function userText(text: string, timestamp: number): UserMessage {
  const content: TextContent[] = [{ type: "text", text }];
  return { role: "user", content, timestamp };
}

/**
 * The default `convertToLlm` seam: turns agent messages into transcript messages.
 * - `system`, `user`, `assistant`, `toolResult` pass through unchanged (same object);
 * - `bashExecution` becomes a user message (dropped when `excludeFromContext`);
 * - `custom` becomes a user message with its content (`display` and `details` dropped);
 * - `branchSummary` and `compactionSummary` become user messages wrapping the summary in `<summary>` tags;
 * - any other role (custom roles declared by extensions) is dropped.
 *
 * Pure: never mutates its input and never throws.
 */
export function convertToLlm(messages: readonly AgentMessage[]): TranscriptMessage[] {
  const result: TranscriptMessage[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "system":
      case "user":
      case "assistant":
      case "toolResult":
        result.push(message as TranscriptMessage);
        break;
      case "bashExecution": {
        const bash = message as BashExecutionMessage;
        if (!bash.excludeFromContext) result.push(userText(formatBashExecution(bash), bash.timestamp));
        break;
      }
      case "custom": {
        const custom = message as Extract<AgentMessage, { role: "custom" }>;
        const content =
          typeof custom.content === "string"
            ? [{ type: "text" as const, text: custom.content }]
            : custom.content;
        result.push({ role: "user", content, timestamp: custom.timestamp });
        break;
      }
      case "branchSummary": {
        const summary = message as Extract<AgentMessage, { role: "branchSummary" }>;
        result.push(
          userText(BRANCH_SUMMARY_PREFIX + summary.summary + BRANCH_SUMMARY_SUFFIX, summary.timestamp),
        );
        break;
      }
      case "compactionSummary": {
        const summary = message as Extract<AgentMessage, { role: "compactionSummary" }>;
        result.push(
          userText(
            COMPACTION_SUMMARY_PREFIX + summary.summary + COMPACTION_SUMMARY_SUFFIX,
            summary.timestamp,
          ),
        );
        break;
      }
      default:
        break;
    }
  }
  return result;
}
