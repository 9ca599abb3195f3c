import {
  type AssistantMessage,
  type CacheRetention,
  complete,
  type Model,
  type ProviderRequest,
  type StreamOptions,
  type Usage,
} from "@arbor/providers";
import { CompactionError } from "../compaction-error";
import { nodeCrypto } from "../internal/node-crypto";
import type { SummaryModelOptions } from "./summary-model-options";
import { SUMMARY_SYSTEM_PROMPT } from "./summary-prompts";

/** Characters per token assumed when sizing requests (deliberately low: it overestimates tokens). */
const CHARS_PER_TOKEN = 3.5;
const SAFETY_TOKENS = 4096;
const SAFETY_RATIO = 0.15;
const MIN_OUTPUT_WITH_RATIO = 32768;

/** Label of each stage in error messages. */
const STAGE_LABEL: Record<CompactionError["stage"], string> = {
  history: "Compaction summary",
  "turn-prefix": "Split-turn summary",
  branch: "Branch summary",
  prepare: "Compaction",
};

/**
 * Output limit that fits the window: the model's `maxTokens`, at most the room the prompt leaves
 * (window − prompt − max(4096, 15% of prompt); when that room is under 32768, window − prompt − 4096
 * capped at 32768), at most `requested`, at least 1.
 */
export function fitSummaryMaxTokens(model: Model, promptChars: number, requested?: number): number {
  let limit = model.maxTokens > 0 ? model.maxTokens : Number.POSITIVE_INFINITY;
  if (requested !== undefined && requested > 0) limit = Math.min(limit, requested);
  if (model.contextWindow > 0) {
    const input = Math.ceil(promptChars / CHARS_PER_TOKEN);
    let room = model.contextWindow - input - Math.max(SAFETY_TOKENS, Math.ceil(input * SAFETY_RATIO));
    if (room < MIN_OUTPUT_WITH_RATIO)
      room = Math.min(MIN_OUTPUT_WITH_RATIO, model.contextWindow - input - SAFETY_TOKENS);
    limit = Math.min(limit, room);
  }
  return Number.isFinite(limit) ? Math.max(1, Math.floor(limit)) : 4096;
}

/**
 * Shortens a serialized conversation from its start so that the whole prompt (with `fixedChars` of
 * instructions) leaves room for an answer in the model's window. The cut is marked in the text.
 */
export function fitConversation(serialized: string, model: Model, fixedChars: number): string {
  if (model.contextWindow <= 0) return serialized;
  const outputReserve = Math.min(model.maxTokens > 0 ? model.maxTokens : 16384, 16384);
  const budgetTokens = model.contextWindow - SAFETY_TOKENS - outputReserve;
  const budgetChars =
    Math.floor(budgetTokens * CHARS_PER_TOKEN * 0.85) - fixedChars - SUMMARY_SYSTEM_PROMPT.length;
  if (serialized.length <= budgetChars) return serialized;
  const keep = Math.max(0, budgetChars - 200);
  let start = serialized.length - keep;
  const boundary = serialized.indexOf("\n\n[", start);
  if (boundary >= 0 && boundary - start < 4000) start = boundary + 2;
  return `[The first ${start} characters of the transcript were left out to fit the summarizing model's context window.]\n\n${serialized.slice(start)}`;
}

function textOf(message: AssistantMessage): string {
  const texts: string[] = [];
  for (const block of message.content) if (block.type === "text") texts.push(block.text);
  return texts.join("\n");
}

function fail(
  stage: CompactionError["stage"],
  code: CompactionError["code"],
  detail: string,
  cause?: unknown,
): never {
  throw new CompactionError(code, `${STAGE_LABEL[stage]} failed: ${detail}`, { stage, cause });
}

/**
 * Sends one summarization request (system prompt + one user message with `promptText`, no tools, no
 * prompt-cache writes) and validates the answer.
 *
 * @throws {CompactionError} `SUMMARY_ABORTED` (signal fired, before or during the request),
 *   `SUMMARY_FAILED` (error answer, or the provider threw), `SUMMARY_TRUNCATED` (length stop: the
 *   partial text is discarded), `SUMMARY_TOOL_CALL`, `SUMMARY_EMPTY`.
 */
export async function requestSummary(
  promptText: string,
  stage: CompactionError["stage"],
  options: SummaryModelOptions,
): Promise<{ text: string; usage: Usage }> {
  return sendSummaryRequest(
    {
      model: options.model,
      systemPrompt: SUMMARY_SYSTEM_PROMPT,
      messages: [{ role: "user", content: [{ type: "text", text: promptText }], timestamp: Date.now() }],
    },
    fitSummaryMaxTokens(options.model, SUMMARY_SYSTEM_PROMPT.length + promptText.length, options.maxTokens),
    stage,
    { ...options, sessionId: options.sessionId ?? nodeCrypto().randomUUID() },
    "none",
  );
}

/**
 * Sends a prepared summarization request (for example a cache-sharing one, see
 * `cacheSharingSummaryRequest`) with `cacheRetention` (default: the provider's, so that a cached
 * prefix is read) and output limit `maxTokens`, and validates the answer like {@link requestSummary}.
 * The routing id (OpenAI's cache key) is `options.sessionId` only: none when it is not given.
 *
 * @throws {CompactionError} the codes of {@link requestSummary}.
 */
export async function sendSummaryRequest(
  request: ProviderRequest,
  maxTokens: number,
  stage: CompactionError["stage"],
  options: SummaryModelOptions,
  cacheRetention?: CacheRetention,
): Promise<{ text: string; usage: Usage }> {
  if (options.signal?.aborted) fail(stage, "SUMMARY_ABORTED", "aborted before the request was sent");
  const streamOptions: StreamOptions = {
    maxTokens,
  };
  // No made-up routing id: a cache-sharing request must reach the cache the conversation used.
  if (options.sessionId) streamOptions.sessionId = options.sessionId;
  if (cacheRetention !== undefined) streamOptions.cacheRetention = cacheRetention;
  if (options.signal) streamOptions.signal = options.signal;
  if (options.model.reasoning && options.reasoning && options.reasoning !== "off")
    streamOptions.reasoning = options.reasoning;
  if (options.headers) streamOptions.headers = options.headers;
  if (options.apiKey) streamOptions.apiKey = options.apiKey;
  if (options.retry) streamOptions.retry = options.retry;
  let response: AssistantMessage;
  try {
    response = await complete(options.provider, request, streamOptions);
  } catch (error) {
    fail(stage, "SUMMARY_FAILED", error instanceof Error ? error.message : String(error), error);
  }
  if (response.stopReason === "aborted" || options.signal?.aborted) fail(stage, "SUMMARY_ABORTED", "aborted");
  if (response.stopReason === "error")
    fail(stage, "SUMMARY_FAILED", response.errorMessage || "unknown error", response.errorMessage);
  if (response.stopReason === "length") {
    fail(
      stage,
      "SUMMARY_TRUNCATED",
      "the model hit its output limit, so the summary is incomplete and was discarded",
    );
  }
  if (response.content.some((block) => block.type === "toolCall")) {
    fail(stage, "SUMMARY_TOOL_CALL", "the model called a tool instead of writing the summary");
  }
  const text = textOf(response);
  if (text.trim().length === 0) fail(stage, "SUMMARY_EMPTY", "the model returned no text");
  return { text, usage: response.usage };
}
