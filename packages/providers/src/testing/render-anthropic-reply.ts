import {
  argumentsObject,
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

const STOP_REASONS = { stop: "end_turn", length: "max_tokens", toolUse: "tool_use" } as const;

/**
 * Renders a scripted response as an Anthropic Messages stream (`message_start`, content blocks
 * with `text_delta` / `thinking_delta` + `signature_delta` / `input_json_delta`, a `ping`,
 * `message_delta` with the stop reason and output usage, `message_stop`) and as the equivalent
 * non-streaming message.
 */
export function renderAnthropicReply(reply: WireResponse, id: string, model: string): RenderedReply {
  const size = chunkSizeOf(reply);
  const usage = usageOf(reply);
  const stopReason = reply.rawStopReason ?? STOP_REASONS[stopReasonOf(reply)];
  const inputUsage = {
    input_tokens: usage.input,
    output_tokens: 1,
    cache_creation_input_tokens: usage.cacheWrite,
    cache_read_input_tokens: usage.cacheRead,
    cache_creation: { ephemeral_5m_input_tokens: usage.cacheWrite, ephemeral_1h_input_tokens: 0 },
  };
  const message = { id, type: "message", role: "assistant", model, stop_sequence: null };
  const events: SseEvent[] = [
    sse(
      { type: "message_start", message: { ...message, content: [], stop_reason: null, usage: inputUsage } },
      "message_start",
    ),
  ];
  const content: unknown[] = [];
  reply.content.forEach((block, index) => {
    const start = (contentBlock: unknown) => {
      events.push(
        sse({ type: "content_block_start", index, content_block: contentBlock }, "content_block_start"),
      );
      // The real API sends a ping after the first block opens.
      if (index === 0) events.push(sse({ type: "ping" }, "ping"));
    };
    const delta = (value: unknown) =>
      events.push(sse({ type: "content_block_delta", index, delta: value }, "content_block_delta"));
    if (block.type === "text") {
      start({ type: "text", text: "" });
      for (const piece of splitIntoChunks(block.text, size)) delta({ type: "text_delta", text: piece });
      content.push({ type: "text", text: block.text });
    } else if (block.type === "thinking") {
      const signature = block.signature ?? "";
      start({ type: "thinking", thinking: "", signature: "" });
      for (const piece of splitIntoChunks(block.thinking, size))
        delta({ type: "thinking_delta", thinking: piece });
      if (signature) delta({ type: "signature_delta", signature });
      content.push({ type: "thinking", thinking: block.thinking, signature });
    } else if (block.type === "redacted-thinking") {
      start({ type: "redacted_thinking", data: block.data });
      content.push({ type: "redacted_thinking", data: block.data });
    } else {
      const toolId = block.id ?? `toolu_${id}_${index}`;
      start({ type: "tool_use", id: toolId, name: block.name, input: {} });
      for (const piece of splitIntoChunks(argumentsText(block), size)) {
        delta({ type: "input_json_delta", partial_json: piece });
      }
      content.push({ type: "tool_use", id: toolId, name: block.name, input: argumentsObject(block) });
    }
    events.push(sse({ type: "content_block_stop", index }, "content_block_stop"));
  });
  events.push(
    sse(
      {
        type: "message_delta",
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: { output_tokens: usage.output },
      },
      "message_delta",
    ),
  );
  events.push(sse({ type: "message_stop" }, "message_stop"));
  const json = {
    ...message,
    content,
    stop_reason: stopReason,
    usage: { ...inputUsage, output_tokens: usage.output },
  };
  return { events, json };
}
