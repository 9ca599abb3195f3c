import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { ProviderError } from "../errors/provider-error";
import type { AssistantMessageBuilder } from "../internal/assistant-message-builder";
import type { StreamProgress } from "../internal/stream-progress";
import type { ProviderEvent } from "../provider/provider-event";
import { mapOpenAIChatFinishReason } from "./map-openai-chat-finish-reason";
import { mapOpenAIUsage } from "./map-openai-usage";

/** Reasoning text as OpenAI-compatible servers stream it (`reasoning_content` or `reasoning`). */
function reasoningDelta(delta: object): string | undefined {
  const fields = delta as { reasoning_content?: unknown; reasoning?: unknown };
  const value = fields.reasoning_content ?? fields.reasoning;
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * Turns Chat Completions chunks into provider events on `builder`: text, reasoning text from
 * compatible servers, and tool calls (several may stream in parallel, keyed by `index`; a missing
 * id gets a generated one). The stream is read to its end so that the trailing usage chunk is
 * seen; then the `done` sequence follows, or nothing when no `finish_reason` ever arrived (the
 * caller reports the interruption). `content_filter` throws `PROVIDER_CONTENT_REFUSED`.
 */
export async function* translateOpenAIChatStream(
  chunks: AsyncIterable<ChatCompletionChunk>,
  builder: AssistantMessageBuilder,
  progress: StreamProgress,
): AsyncGenerator<ProviderEvent> {
  const toolBlocks = new Map<number, number>();
  let textBlock: number | undefined;
  let thinkingBlock: number | undefined;
  let finishReason: string | undefined;
  const closeProse = function* (): Generator<ProviderEvent> {
    for (const index of [thinkingBlock, textBlock]) {
      const end = index === undefined ? undefined : builder.close(index);
      if (end) yield end;
    }
    thinkingBlock = undefined;
    textBlock = undefined;
  };
  for await (const chunk of chunks) {
    progress.responseStarted = true;
    if (chunk.id && !builder.message.responseId) builder.message.responseId = chunk.id;
    if (chunk.model && !builder.message.responseModel) builder.message.responseModel = chunk.model;
    if (chunk.usage) builder.updateUsage(mapOpenAIUsage(chunk.usage));
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta ?? {};
    const reasoning = reasoningDelta(delta);
    if (reasoning !== undefined) {
      if (thinkingBlock === undefined) {
        const opened = builder.openThinking();
        thinkingBlock = opened.index;
        yield opened.event;
      }
      yield builder.appendThinking(thinkingBlock, reasoning);
    }
    if (typeof delta.content === "string" && delta.content !== "") {
      if (textBlock === undefined) {
        const end = thinkingBlock === undefined ? undefined : builder.close(thinkingBlock);
        if (end) yield end;
        const opened = builder.openText();
        textBlock = opened.index;
        yield opened.event;
      }
      yield builder.appendText(textBlock, delta.content);
    }
    for (const call of delta.tool_calls ?? []) {
      // Servers that omit `index` send each call whole in one chunk.
      const key = typeof call.index === "number" ? call.index : -1 - toolBlocks.size;
      let index = toolBlocks.get(key);
      if (index === undefined) {
        yield* closeProse();
        const id = call.id || `call_${toolBlocks.size}_${Math.random().toString(36).slice(2, 10)}`;
        const opened = builder.openToolCall(id, call.function?.name ?? "");
        index = opened.index;
        toolBlocks.set(key, index);
        yield opened.event;
      }
      const block = builder.message.content[index];
      if (block?.type === "toolCall" && block.name === "" && call.function?.name)
        block.name = call.function.name;
      if (call.function?.arguments) yield builder.appendToolArguments(index, call.function.arguments);
    }
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  if (finishReason === undefined) return;
  const mapped = mapOpenAIChatFinishReason(finishReason, toolBlocks.size > 0);
  if (mapped === "refused") {
    throw new ProviderError(
      "PROVIDER_CONTENT_REFUSED",
      `${builder.message.provider}: the response was filtered (${finishReason})`,
      {
        provider: builder.message.provider,
        providerCode: finishReason,
      },
    );
  }
  yield* builder.finish(mapped);
}
