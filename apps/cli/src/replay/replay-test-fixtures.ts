/**
 * Fixtures shared by the replay's unit tests (not shipped: only `*.test.ts` files import it): a
 * Claude model with round prices, a token counter of one token per character, recorded answers and
 * user messages.
 */
import type { AgentMessage } from "@arbor/agent-loop";
import type { AssistantMessage, Message, Model } from "@arbor/providers";
import type { ReplayStep } from "./replay-script";

/** Claude Sonnet 4.5 with a 10,000-token window and its per-million prices. */
export const replayTestModel: Model = {
  id: "claude-sonnet-4-5",
  provider: "anthropic",
  api: "anthropic-messages",
  contextWindow: 10_000,
  maxTokens: 1000,
  reasoning: false,
  input: ["text"],
  cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
};

/** One token per character of a text, and of a message's text blocks: figures are easy to compute by hand. */
export const charTokenCounter = {
  countText: (text: string) => text.length,
  countMessage: (message: AgentMessage) =>
    (message as { content: Array<{ text?: string }> }).content.reduce(
      (sum, block) => sum + (block.text?.length ?? 0),
      0,
    ),
};

/** A recorded assistant answer of `text` at `timestamp`, with `output` output tokens. */
export function recordedAssistant(text: string, timestamp: number, output = 10): AssistantMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    usage: {
      input: 0,
      output,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "stop",
    timestamp,
  } as AssistantMessage;
}

/** A replay step answering with {@link recordedAssistant} and no tool results. */
export function recordedAnswer(text: string, timestamp: number, output = 10): ReplayStep {
  return { assistant: recordedAssistant(text, timestamp, output), results: new Map() };
}

/** A user message of one text block. */
export function userText(text: string): Message {
  return { role: "user", content: [{ type: "text", text }], timestamp: 0 };
}
