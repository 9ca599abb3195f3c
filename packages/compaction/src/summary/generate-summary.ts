import { type AgentMessage, convertToLlm } from "@arbor/agent-loop";
import type { Usage } from "@arbor/providers";
import { serializeConversation } from "../serialize/serialize-conversation";
import { fitConversation, requestSummary } from "./request-summary";
import type { SummaryModelOptions } from "./summary-model-options";
import {
  CUSTOM_INSTRUCTIONS_LABEL,
  INITIAL_SUMMARY_PROMPT,
  TURN_PREFIX_SUMMARY_PROMPT,
  UPDATE_SUMMARY_PROMPT,
} from "./summary-prompts";

/** A summary text and the usage of the request that produced it. */
export interface GeneratedSummary {
  text: string;
  usage: Usage;
}

/** Options of {@link generateSummary}. */
export interface GenerateSummaryOptions extends SummaryModelOptions {
  /** The summary being extended; switches to the update instructions. */
  previousSummary?: string;
}

/** Appends the user's focus to instructions. */
export function withFocus(instructions: string, customInstructions: string | undefined): string {
  return customInstructions
    ? `${instructions}\n\n${CUSTOM_INSTRUCTIONS_LABEL}${customInstructions}`
    : instructions;
}

/** `<conversation>` block of a prompt: the messages serialized (shortened from the start if too long). */
export function conversationBlock(
  messages: readonly AgentMessage[],
  options: SummaryModelOptions,
  fixedChars: number,
): string {
  const serialized = serializeConversation(convertToLlm(messages));
  return `<conversation>\n${fitConversation(serialized, options.model, fixedChars)}\n</conversation>\n\n`;
}

/**
 * Summarizes messages into the structured checkpoint format with one model request. With a
 * `previousSummary` the request carries it in `<previous-summary>` and asks for an updated checkpoint.
 * The request has a summarization system prompt, one user message, no tools, `cacheRetention: "none"`
 * and an output limit that fits the window.
 *
 * @throws {CompactionError} stage `history`: `SUMMARY_ABORTED`, `SUMMARY_FAILED`, `SUMMARY_TRUNCATED`,
 *   `SUMMARY_TOOL_CALL` or `SUMMARY_EMPTY`. Never returns partial text.
 */
export async function generateSummary(
  messages: readonly AgentMessage[],
  options: GenerateSummaryOptions,
): Promise<GeneratedSummary> {
  const previous = options.previousSummary
    ? `<previous-summary>\n${options.previousSummary}\n</previous-summary>\n\n`
    : "";
  const instructions = withFocus(
    options.previousSummary ? UPDATE_SUMMARY_PROMPT : INITIAL_SUMMARY_PROMPT,
    options.customInstructions,
  );
  const conversation = conversationBlock(messages, options, previous.length + instructions.length);
  return requestSummary(conversation + previous + instructions, "history", options);
}

/**
 * Summarizes the beginning of a turn that the cut point splits (the rest of the turn stays verbatim):
 * the user's request, progress so far and the context the rest of the turn needs.
 *
 * @throws {CompactionError} stage `turn-prefix`, same codes as {@link generateSummary}.
 */
export async function generateTurnPrefixSummary(
  messages: readonly AgentMessage[],
  options: SummaryModelOptions,
): Promise<GeneratedSummary> {
  const instructions = withFocus(TURN_PREFIX_SUMMARY_PROMPT, options.customInstructions);
  const conversation = conversationBlock(messages, options, instructions.length);
  return requestSummary(conversation + instructions, "turn-prefix", options);
}
