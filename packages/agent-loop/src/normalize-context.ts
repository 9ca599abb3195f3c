import { type Message, normalizeMessagesForProvider, type SystemMessage, type Tool } from "@arbor/providers";
import type { NormalizeContextInput, NormalizedContext } from "./agent-loop-config";
import { renderSystemPrompt, replaySystemMessages } from "./replay-system-messages";

/**
 * The default `normalizeContext` seam: turns converted messages into a request a provider accepts.
 *
 * 1. **System prompt.** The transcript's system messages are replayed (`replaySystemMessages`) and
 *    rendered (`renderSystemPrompt`). `input.systemPrompt` (the config's prompt) comes first, the
 *    replayed prompt after it, joined by a blank line; empty parts are skipped; no prompt at all
 *    leaves `systemPrompt` unset.
 * 2. **Tools.** The tools the transcript declares (`toolsAdded` / `toolsRemoved`), then
 *    `input.tools`: a config tool replaces a transcript declaration of the same name in place,
 *    others are appended. No tools leaves `tools` unset.
 * 3. **Messages.** System messages are removed (they are folded above); the rest go through
 *    `normalizeMessagesForProvider` from `@arbor/providers` for `input.model`, the same pass every
 *    adapter runs, so that the request the seam returns is the request that will be sent. It drops
 *    assistant messages that ended in `error` or `aborted` and the results answering them, empty
 *    assistant messages, orphan and repeated tool results; gives every tool call without a result
 *    an error result (`MISSING_TOOL_RESULT_TEXT`); moves user messages that sat between a tool
 *    call and its results after the results; strips thinking from other models' messages; makes
 *    tool call ids valid for the API; replaces images for text-only models.
 *
 * Pure: never mutates `input` or its messages. Never throws. One pass over the messages plus the
 * provider normalisation (itself one pass).
 */
export function normalizeContext(input: NormalizeContextInput): NormalizedContext {
  const systemMessages: SystemMessage[] = [];
  const conversation: Message[] = [];
  for (const message of input.messages) {
    if (message.role === "system") systemMessages.push(message);
    else conversation.push(message);
  }
  const replayed = systemMessages.length > 0 ? replaySystemMessages(systemMessages) : undefined;
  const systemPrompt = joinPrompts(input.systemPrompt, replayed);
  const tools = mergeTools(replayed?.toolsAdded ?? [], input.tools);
  return {
    ...(systemPrompt === undefined ? {} : { systemPrompt }),
    messages: normalizeMessagesForProvider(conversation, input.model),
    ...(tools.length === 0 ? {} : { tools }),
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
