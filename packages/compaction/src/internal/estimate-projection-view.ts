import { type AgentMessage, replaySystemMessages } from "@arbor/agent-loop";
import type { SessionEntry } from "@arbor/session-store";
import { calculateContextTokens } from "../tokens/calculate-context-tokens";
import type { TokenCounter } from "../tokens/token-counter";
import { validAssistantUsage } from "./assistant-usage";
import { countMessageCached } from "./message-token-cache";

/** A projection as the usage-aware estimate reads it. */
export interface ProjectionView {
  readonly length: number;
  /** Messages of projected entry `index`. */
  messages(index: number): readonly AgentMessage[];
  /** Tokens of every message of projected entry `index`. */
  tokens(index: number): number;
  /** False when entry `index` cannot contribute a system message (its tokens are then used as a whole). */
  mayHoldSystem(index: number): boolean;
  /** Index in the branch of projected entry `index` (pi: the first branch entry with its id), or -1. */
  branchIndexOf(index: number): number;
}

/** Result of {@link estimateProjectionView}. */
export interface ProjectionViewEstimate {
  tokens: number;
  usageTokens: number;
  trailingTokens: number;
  /** How many projected messages follow the one whose usage was used; `null` for a pure estimate. */
  usageMessagesFromEnd: number | null;
}

function latestInvalidatingIndex(branch: readonly SessionEntry[]): number {
  for (let index = branch.length - 1; index >= 0; index--) {
    const type = branch[index]?.type;
    if (type === "context_edit" || type === "compaction") return index;
  }
  return -1;
}

function usageEstimate(view: ProjectionView, counter: TokenCounter) {
  let trailingTokens = 0;
  let messagesAfter = 0;
  for (let entry = view.length - 1; entry >= 0; entry--) {
    const messages = view.messages(entry);
    for (let position = messages.length - 1; position >= 0; position--) {
      const usage = validAssistantUsage(messages[position] as AgentMessage);
      if (usage === undefined) continue;
      for (let after = position + 1; after < messages.length; after++) {
        trailingTokens += countMessageCached(counter, messages[after] as AgentMessage);
      }
      const usageTokens = calculateContextTokens(usage);
      return {
        entry,
        tokens: usageTokens + trailingTokens,
        usageTokens,
        trailingTokens,
        usageMessagesFromEnd: messagesAfter + (messages.length - 1 - position),
      };
    }
    trailingTokens += view.tokens(entry);
    messagesAfter += messages.length;
  }
  return undefined;
}

/**
 * pi's `estimateProjectedContextTokens` over a projection view: the usage-aware estimate when the
 * assistant whose usage it uses lies after the latest `context_edit` or `compaction` of the branch;
 * otherwise a pure estimate (the replayed system message counted once, plus every other message).
 */
export function estimateProjectionView(
  view: ProjectionView,
  branch: readonly SessionEntry[],
  counter: TokenCounter,
): ProjectionViewEstimate {
  const usage = usageEstimate(view, counter);
  if (usage !== undefined && view.branchIndexOf(usage.entry) > latestInvalidatingIndex(branch)) {
    const { entry: _entry, ...estimate } = usage;
    return estimate;
  }
  const systemMessages: AgentMessage[] = [];
  let tokens = 0;
  for (let index = 0; index < view.length; index++) {
    if (!view.mayHoldSystem(index)) {
      tokens += view.tokens(index);
      continue;
    }
    for (const message of view.messages(index)) {
      if (message.role === "system") systemMessages.push(message);
      else tokens += countMessageCached(counter, message);
    }
  }
  const system = replaySystemMessages(systemMessages);
  if (system !== undefined) tokens += counter.countMessage(system);
  return { tokens, usageTokens: 0, trailingTokens: tokens, usageMessagesFromEnd: null };
}
