import type { AgentMessage } from "@arbor/agent-loop";
import { validAssistantUsage } from "../internal/assistant-usage";
import { countMessageCached } from "../internal/message-token-cache";
import { calculateContextTokens } from "./calculate-context-tokens";
import { defaultTokenCounter, type TokenCounter } from "./token-counter";

/** Result of {@link estimateContextTokens}. */
export interface ContextTokenEstimate {
  /** `usageTokens + trailingTokens`: the best estimate of the context size. */
  tokens: number;
  /** Context size reported by the last valid assistant usage (0 when none). */
  usageTokens: number;
  /** Estimated tokens of the messages after that assistant (all messages when there is none). */
  trailingTokens: number;
  /** Index in `messages` of the assistant whose usage was used, or `null`. */
  lastUsageIndex: number | null;
}

/** Options of the context estimators. */
export interface EstimateOptions {
  /** Counter for messages without reported usage. Default: pi's chars/4 ({@link defaultTokenCounter}). */
  tokenCounter?: TokenCounter;
}

/**
 * Usage-aware context size. Finds the last assistant with a valid usage (not `aborted`/`error`, non-zero;
 * a `length` stop counts), takes its reported context size ({@link calculateContextTokens}) and adds the
 * estimate of every message after it, including system messages and failed assistants. Without such an
 * assistant every message is estimated. Equal to pi 1.6.0 with the default counter.
 *
 * Pure: never mutates. Counts are cached per message object (see {@link TokenCounter}).
 */
export function estimateContextTokens(
  messages: readonly AgentMessage[],
  options: EstimateOptions = {},
): ContextTokenEstimate {
  const counter = options.tokenCounter ?? defaultTokenCounter;
  for (let index = messages.length - 1; index >= 0; index--) {
    const usage = validAssistantUsage(messages[index] as AgentMessage);
    if (usage === undefined) continue;
    const usageTokens = calculateContextTokens(usage);
    let trailingTokens = 0;
    for (let after = index + 1; after < messages.length; after++) {
      trailingTokens += countMessageCached(counter, messages[after] as AgentMessage);
    }
    return { tokens: usageTokens + trailingTokens, usageTokens, trailingTokens, lastUsageIndex: index };
  }
  let estimated = 0;
  for (const message of messages) estimated += countMessageCached(counter, message);
  return { tokens: estimated, usageTokens: 0, trailingTokens: estimated, lastUsageIndex: null };
}
