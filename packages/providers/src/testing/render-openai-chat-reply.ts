import {
  argumentsText,
  chunkSizeOf,
  type RenderedReply,
  type SseEvent,
  splitIntoChunks,
  sse,
  stopReasonOf,
  usageOf,
} from "./reply-parts";
import type { WireResponse } from "./wire-reply";

const FINISH_REASONS = { stop: "stop", length: "length", toolUse: "tool_calls" } as const;

/**
 * Renders a scripted response as a Chat Completions stream: a role chunk, `reasoning_content`
 * deltas for thinking (as vLLM, llama.cpp server and DeepSeek stream it), `content` deltas, tool
 * call deltas (id and name first, then argument pieces), a finish chunk, a usage chunk when the
 * request asked for `stream_options.include_usage`, and `[DONE]`. Also the equivalent JSON body.
 */
export function renderOpenAIChatReply(
  reply: WireResponse,
  id: string,
  model: string,
  includeUsage: boolean,
): RenderedReply {
  const size = chunkSizeOf(reply);
  const usage = usageOf(reply);
  const finishReason = reply.rawStopReason ?? FINISH_REASONS[stopReasonOf(reply)];
  const base = {
    id,
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model,
    system_fingerprint: null,
  };
  const chunk = (delta: unknown, finish: string | null = null): SseEvent =>
    sse({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  const events: SseEvent[] = [chunk({ role: "assistant", content: "" })];
  const texts: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: unknown[] = [];
  for (const block of reply.content) {
    if (block.type === "text") {
      texts.push(block.text);
      for (const piece of splitIntoChunks(block.text, size)) events.push(chunk({ content: piece }));
    } else if (block.type === "thinking") {
      reasoning.push(block.thinking);
      for (const piece of splitIntoChunks(block.thinking, size))
        events.push(chunk({ reasoning_content: piece }));
    } else if (block.type === "tool-call") {
      const index = toolCalls.length;
      const callId = block.id ?? `call_${id}_${index}`;
      const text = argumentsText(block);
      events.push(
        chunk({
          tool_calls: [
            { index, id: callId, type: "function", function: { name: block.name, arguments: "" } },
          ],
        }),
      );
      for (const piece of splitIntoChunks(text, size)) {
        events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
      toolCalls.push({ id: callId, type: "function", function: { name: block.name, arguments: text } });
    }
  }
  events.push(chunk({}, finishReason));
  const usageBody = {
    prompt_tokens: usage.input + usage.cacheRead,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.cacheRead + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cacheRead },
    completion_tokens_details: { reasoning_tokens: usage.reasoning },
  };
  if (includeUsage) events.push(sse({ ...base, choices: [], usage: usageBody }));
  events.push({ data: "[DONE]" });
  const message: Record<string, unknown> = {
    role: "assistant",
    content: texts.length > 0 ? texts.join("") : null,
  };
  if (reasoning.length > 0) message.reasoning_content = reasoning.join("");
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  const json = {
    id,
    object: "chat.completion",
    created: base.created,
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
    usage: usageBody,
  };
  return { events, json };
}
