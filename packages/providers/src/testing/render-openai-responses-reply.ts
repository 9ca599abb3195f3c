import {
  argumentsText,
  chunkSizeOf,
  type RenderedReply,
  type SseEvent,
  splitIntoChunks,
  stopReasonOf,
  usageOf,
} from "./reply-parts";
import type { WireBlock, WireResponse } from "./wire-reply";

type Emit = (type: string, fields: Record<string, unknown>) => void;

function renderBlock(block: WireBlock, outputIndex: number, id: string, size: number, emit: Emit): unknown {
  const at = { output_index: outputIndex };
  if (block.type === "thinking" || block.type === "redacted-thinking") {
    const itemId = `rs_${id}_${outputIndex}`;
    const text = block.type === "thinking" ? block.thinking : "";
    const encrypted = block.type === "thinking" ? (block.signature ?? null) : block.data;
    emit("response.output_item.added", { ...at, item: { id: itemId, type: "reasoning", summary: [] } });
    const summary = text === "" ? [] : [{ type: "summary_text", text }];
    if (text !== "") {
      const part = { item_id: itemId, ...at, summary_index: 0 };
      emit("response.reasoning_summary_part.added", { ...part, part: { type: "summary_text", text: "" } });
      for (const piece of splitIntoChunks(text, size))
        emit("response.reasoning_summary_text.delta", { ...part, delta: piece });
      emit("response.reasoning_summary_text.done", { ...part, text });
      emit("response.reasoning_summary_part.done", { ...part, part: { type: "summary_text", text } });
    }
    const item = { id: itemId, type: "reasoning", summary, encrypted_content: encrypted };
    emit("response.output_item.done", { ...at, item });
    return item;
  }
  if (block.type === "text") {
    const itemId = `msg_${id}_${outputIndex}`;
    const part = { item_id: itemId, ...at, content_index: 0 };
    emit("response.output_item.added", {
      ...at,
      item: { id: itemId, type: "message", role: "assistant", status: "in_progress", content: [] },
    });
    emit("response.content_part.added", {
      ...part,
      part: { type: "output_text", text: "", annotations: [] },
    });
    for (const piece of splitIntoChunks(block.text, size)) {
      emit("response.output_text.delta", { ...part, delta: piece, logprobs: [] });
    }
    const finalPart = { type: "output_text", text: block.text, annotations: [] };
    emit("response.output_text.done", { ...part, text: block.text, logprobs: [] });
    emit("response.content_part.done", { ...part, part: finalPart });
    const item = {
      id: itemId,
      type: "message",
      role: "assistant",
      status: "completed",
      content: [finalPart],
    };
    emit("response.output_item.done", { ...at, item });
    return item;
  }
  const itemId = `fc_${id}_${outputIndex}`;
  const callId = block.id ?? `call_${id}_${outputIndex}`;
  const text = argumentsText(block);
  const item = { id: itemId, type: "function_call", call_id: callId, name: block.name, arguments: "" };
  emit("response.output_item.added", { ...at, item: { ...item, status: "in_progress" } });
  for (const piece of splitIntoChunks(text, size)) {
    emit("response.function_call_arguments.delta", { item_id: itemId, ...at, delta: piece });
  }
  emit("response.function_call_arguments.done", { item_id: itemId, ...at, arguments: text });
  const done = { ...item, arguments: text, status: "completed" };
  emit("response.output_item.done", { ...at, item: done });
  return done;
}

/**
 * Renders a scripted response as an OpenAI Responses stream (`response.created`, one output item
 * per block with its added / delta / done events, then `response.completed`, or
 * `response.incomplete` with reason `max_output_tokens` for a length stop, or `rawStopReason` such as
 * `content_filter`), every event with its
 * `sequence_number`, and as the equivalent response object.
 */
export function renderOpenAIResponsesReply(reply: WireResponse, id: string, model: string): RenderedReply {
  const size = chunkSizeOf(reply);
  const usage = usageOf(reply);
  const events: SseEvent[] = [];
  let sequence = 0;
  const emit: Emit = (type, fields) => {
    events.push({ event: type, data: JSON.stringify({ type, sequence_number: sequence++, ...fields }) });
  };
  const response = {
    id: `resp_${id}`,
    object: "response",
    created_at: 1_700_000_000,
    model,
    status: "in_progress",
    error: null,
    incomplete_details: null as null | { reason: string },
    output: [] as unknown[],
    usage: null as unknown,
  };
  emit("response.created", { response: { ...response } });
  emit("response.in_progress", { response: { ...response } });
  reply.content.forEach((block, index) => {
    response.output.push(renderBlock(block, index, id, size, emit));
  });
  const raw = reply.rawStopReason;
  const incompleteReason =
    raw === undefined
      ? stopReasonOf(reply) === "length"
        ? "max_output_tokens"
        : undefined
      : raw === "stop" || raw === "toolUse"
        ? undefined
        : raw;
  const final = {
    ...response,
    status: incompleteReason ? "incomplete" : "completed",
    incomplete_details: incompleteReason ? { reason: incompleteReason } : null,
    usage: {
      input_tokens: usage.input + usage.cacheRead,
      input_tokens_details: { cached_tokens: usage.cacheRead },
      output_tokens: usage.output,
      output_tokens_details: { reasoning_tokens: usage.reasoning },
      total_tokens: usage.input + usage.cacheRead + usage.output,
    },
  };
  emit(incompleteReason ? "response.incomplete" : "response.completed", { response: final });
  return { events, json: final };
}
