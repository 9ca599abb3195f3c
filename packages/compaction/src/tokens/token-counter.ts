import type { AgentMessage } from "@arbor/agent-loop";
import { estimateTokens } from "./estimate-tokens";

/**
 * Counts the tokens of one message. Every estimate in this package (context size, cut points,
 * branch budgets) goes through a `TokenCounter`; the default is pi's chars/4 heuristic
 * ({@link defaultTokenCounter}), which keeps results identical to pi 1.6.0.
 *
 * Contract: `countMessage` must be synchronous, must not throw, must not mutate the message and must
 * return the same non-negative integer for the same message object every time it is called (callers
 * cache results per message and per session entry).
 */
export interface TokenCounter {
  /** A short name for diagnostics, for example `chars/4` or `tiktoken:o200k_base`. */
  readonly name: string;
  /** Tokens of one message. */
  countMessage(message: AgentMessage): number;
}

/** The default counter: pi's chars/4 estimate ({@link estimateTokens}). Stateless. */
export const defaultTokenCounter: TokenCounter = Object.freeze({
  name: "chars/4",
  countMessage: estimateTokens,
});
