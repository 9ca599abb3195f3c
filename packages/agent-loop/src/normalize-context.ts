import type { AssistantMessage, Message, SystemMessage, Tool, ToolResultMessage } from "@arbor/providers";
import type { NormalizeContextInput, NormalizedContext } from "./agent-loop-config";
import { renderSystemPrompt, replaySystemMessages } from "./replay-system-messages";

/** Text of the result `normalizeContext` adds for a tool call that has none. */
export const MISSING_TOOL_RESULT_TEXT = "No result was recorded for this tool call.";

/**
 * The default `normalizeContext` seam: turns converted messages into a request a provider accepts.
 *
 * 1. **System prompt.** Every system message is replayed (`replaySystemMessages`) and rendered
 *    (`renderSystemPrompt`). `input.systemPrompt` (the config's prompt) comes first, the replayed
 *    prompt after it, joined by a blank line; empty parts are skipped; no prompt at all leaves
 *    `systemPrompt` unset.
 * 2. **Tools.** The tools declared by the transcript (`toolsAdded` / `toolsRemoved`), then
 *    `input.tools`: a config tool replaces a transcript declaration of the same name in place,
 *    others are appended. No tools leaves `tools` unset.
 * 3. **Messages the provider cannot take are dropped:** system messages (folded above), assistant
 *    messages whose stop reason is `error` or `aborted` (their content may be cut off) together
 *    with the tool results answering them, assistant messages without any content block, and tool
 *    results that answer no tool call of the assistant message just before them (or repeat one).
 * 4. **Every tool call gets a result.** A call without a result before the next user or assistant
 *    message (or the end) gets an error result reading {@link MISSING_TOOL_RESULT_TEXT}, placed after
 *    the results that exist.
 *
 * Left to the adapters: merging consecutive same-role messages, images for text-only models, tool
 * call id formats, thinking blocks from other models.
 *
 * Pure: never mutates `input` or its messages; messages kept are passed through as the same
 * objects. Never throws. One pass over the messages.
 */
export function normalizeContext(input: NormalizeContextInput): NormalizedContext {
  const systemMessages: SystemMessage[] = [];
  const messages: Message[] = [];
  // Tool calls of the last kept assistant message that may still receive results.
  let openCalls: Map<string, string> | undefined;
  let answered: Set<string> | undefined;
  let openedAt = 0;
  const closeOpenCalls = () => {
    if (openCalls === undefined) return;
    for (const [toolCallId, toolName] of openCalls) {
      if (!answered?.has(toolCallId)) messages.push(missingResult(toolCallId, toolName, openedAt));
    }
    openCalls = undefined;
    answered = undefined;
  };
  for (const message of input.messages) {
    switch (message.role) {
      case "system":
        systemMessages.push(message);
        break;
      case "toolResult":
        if (openCalls?.has(message.toolCallId) && !answered?.has(message.toolCallId)) {
          answered ??= new Set();
          answered.add(message.toolCallId);
          messages.push(message);
        }
        break;
      case "assistant":
        closeOpenCalls();
        if (!isSendable(message)) break;
        messages.push(message);
        for (const block of message.content) {
          if (block.type !== "toolCall") continue;
          openCalls ??= new Map();
          openCalls.set(block.id, block.name);
          openedAt = message.timestamp;
        }
        break;
      default:
        closeOpenCalls();
        messages.push(message);
    }
  }
  closeOpenCalls();
  const replayed = systemMessages.length > 0 ? replaySystemMessages(systemMessages) : undefined;
  const systemPrompt = joinPrompts(input.systemPrompt, replayed);
  const tools = mergeTools(replayed?.toolsAdded ?? [], input.tools);
  return {
    ...(systemPrompt === undefined ? {} : { systemPrompt }),
    messages,
    ...(tools.length === 0 ? {} : { tools }),
  };
}

function isSendable(message: AssistantMessage): boolean {
  return message.stopReason !== "error" && message.stopReason !== "aborted" && message.content.length > 0;
}

function missingResult(toolCallId: string, toolName: string, timestamp: number): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId,
    toolName,
    content: [{ type: "text", text: MISSING_TOOL_RESULT_TEXT }],
    isError: true,
    timestamp,
  };
}

function joinPrompts(
  configPrompt: string | undefined,
  replayed: SystemMessage | undefined,
): string | undefined {
  const parts = [configPrompt ?? "", replayed ? renderSystemPrompt(replayed) : ""].filter(
    (part) => part.length > 0,
  );
  return parts.length > 0 ? parts.join("\n\n") : undefined;
}

function mergeTools(declared: Tool[], configTools: readonly Tool[]): Tool[] {
  if (configTools.length === 0) return declared;
  if (declared.length === 0) return [...configTools];
  const byName = new Map<string, Tool>();
  for (const tool of declared) byName.set(tool.name, tool);
  for (const tool of configTools) byName.set(tool.name, tool);
  return [...byName.values()];
}
