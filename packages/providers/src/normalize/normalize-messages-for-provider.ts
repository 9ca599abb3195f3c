import type { AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage } from "../message";
import type { Model } from "../model/model";
import { replaceUnsupportedImages } from "./replace-unsupported-images";
import { sanitizeToolCallId } from "./sanitize-tool-call-id";

/** Text of the error result given to a tool call that has none. */
export const MISSING_TOOL_RESULT_TEXT = "No result was recorded for this tool call.";

const API_ALIASES: Record<string, string> = { "openai-completions": "openai-chat" };

function sameApi(left: string, right: string): boolean {
  return (API_ALIASES[left] ?? left) === (API_ALIASES[right] ?? right);
}

/** True when `message` was produced by `model` (same provider, API and id), so its signatures are valid. */
export function isFromSameModel(message: AssistantMessage, model: Model): boolean {
  return message.provider === model.provider && message.model === model.id && sameApi(message.api, model.api);
}

function normalizeAssistant(
  message: AssistantMessage,
  model: Model,
  idMap: Map<string, string>,
  takenIds: Set<string>,
): AssistantMessage {
  const sameModel = isFromSameModel(message, model);
  const content: AssistantMessage["content"] = [];
  // True while every block is kept as it is: the message is then shared, not copied.
  let unchanged = true;
  for (const block of message.content) {
    if (block.type === "thinking") {
      // Signatures and encrypted reasoning only verify for the model that wrote them.
      if (!sameModel || (!block.redacted && !block.thinkingSignature && block.thinking.trim() === "")) {
        unchanged = false;
        continue;
      }
      content.push(block);
    } else if (block.type === "text") {
      if (sameModel || block.textSignature === undefined) content.push(block);
      else {
        unchanged = false;
        content.push({ type: "text", text: block.text });
      }
    } else {
      const id = sanitizeToolCallId(block.id, model.api, takenIds);
      idMap.set(block.id, id);
      if (id === block.id && (sameModel || !("thoughtSignature" in block))) content.push(block);
      else {
        unchanged = false;
        const call: ToolCall = { ...block, id };
        if (!sameModel) delete call.thoughtSignature;
        content.push(call);
      }
    }
  }
  return unchanged ? message : { ...message, content };
}

function normalizeUser(message: UserMessage, acceptsImages: boolean): UserMessage {
  if (acceptsImages || typeof message.content === "string") return message;
  const content = replaceUnsupportedImages(message.content);
  return content === message.content ? message : { ...message, content };
}

function normalizeResult(message: ToolResultMessage, id: string, acceptsImages: boolean): ToolResultMessage {
  const content = acceptsImages ? message.content : replaceUnsupportedImages(message.content);
  return content === message.content && id === message.toolCallId
    ? message
    : { ...message, toolCallId: id, content };
}

function missingResult(call: ToolCall, timestamp: number): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: "text", text: MISSING_TOOL_RESULT_TEXT }],
    isError: true,
    timestamp,
  };
}

/** Old session files and untyped callers may carry `content: null`; treat it as empty. */
function withContent(message: Message): Message {
  if (message.content != null) return message;
  return { ...message, content: message.role === "user" ? "" : [] } as Message;
}

/**
 * Prepares a conversation for `targetModel`'s API. Every adapter runs it before converting; it is
 * exported so that callers can see exactly what will be sent. Rules, in order:
 *
 * 1. Assistant messages that ended in `"error"` or `"aborted"` are left out (they are incomplete
 *    turns; replaying them makes APIs reject the request).
 * 2. Thinking blocks of assistant messages from another model (provider, API or id differ) are
 *    dropped, and so are their text signatures and tool call `thoughtSignature`s. Empty unsigned
 *    thinking blocks are dropped for the same model too. Assistant messages left without content
 *    are left out.
 * 3. Tool call ids are made valid and unique for the target API (`sanitizeToolCallId`); their
 *    results follow the new ids.
 * 4. Every tool call gets a result directly after its assistant message, in call order: the
 *    recorded one, or a synthetic error result (`MISSING_TOOL_RESULT_TEXT`) when none exists.
 *    User messages that sat between a tool call and its results move after the results. Results
 *    that answer no tool call of the preceding assistant message (orphans, duplicates) are left
 *    out, since every API rejects them.
 * 5. For a model without image input, images in user messages and tool results become one
 *    placeholder text per run of images.
 *
 * A missing (`null`) content counts as empty. Pure: returns a new array, never mutates `messages` or their blocks (unchanged messages are
 * shared by reference). Never throws.
 */
export function normalizeMessagesForProvider(messages: readonly Message[], targetModel: Model): Message[] {
  const acceptsImages = targetModel.input.includes("image");
  const takenIds = new Set<string>();
  const result: Message[] = [];
  let pendingCalls: ToolCall[] = [];
  let idMap = new Map<string, string>();
  let answered = new Map<string, ToolResultMessage>();
  let heldUsers: Message[] = [];
  let segmentTimestamp = 0;

  const closeSegment = () => {
    for (const call of pendingCalls)
      result.push(answered.get(call.id) ?? missingResult(call, segmentTimestamp));
    result.push(...heldUsers);
    pendingCalls = [];
    answered = new Map();
    heldUsers = [];
  };

  for (const raw of messages) {
    const message = withContent(raw);
    if (message.role === "assistant") {
      closeSegment();
      if (message.stopReason === "error" || message.stopReason === "aborted") {
        idMap = new Map();
        continue;
      }
      idMap = new Map();
      const normalized = normalizeAssistant(message, targetModel, idMap, takenIds);
      if (normalized.content.length === 0) continue;
      result.push(normalized);
      pendingCalls = normalized.content.filter((block): block is ToolCall => block.type === "toolCall");
      segmentTimestamp = message.timestamp;
    } else if (message.role === "toolResult") {
      const id = idMap.get(message.toolCallId);
      const isPending = id !== undefined && pendingCalls.some((call) => call.id === id);
      if (!isPending || answered.has(id)) continue;
      answered.set(id, normalizeResult(message, id, acceptsImages));
    } else {
      const user = normalizeUser(message, acceptsImages);
      if (pendingCalls.length > 0) heldUsers.push(user);
      else result.push(user);
    }
  }
  closeSegment();
  return result;
}
