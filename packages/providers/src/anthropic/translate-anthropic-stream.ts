import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { ProviderError } from "../errors/provider-error";
import type { AssistantMessageBuilder } from "../internal/assistant-message-builder";
import type { StreamProgress } from "../internal/stream-progress";
import type { ProviderEvent } from "../provider/provider-event";
import { mapAnthropicStopReason } from "./map-anthropic-stop-reason";
import { mapAnthropicUsage } from "./map-anthropic-usage";

/**
 * Turns Anthropic stream events into provider events on `builder`. Text, thinking (with streamed
 * signatures), redacted thinking and tool use blocks are mapped; other block types (server tools,
 * citations) are skipped. On `message_stop` it yields the `done` sequence; a refusal throws a
 * `PROVIDER_CONTENT_REFUSED` error instead. Returns without `done` when the stream ends early (the
 * caller reports the interruption).
 */
export async function* translateAnthropicStream(
  events: AsyncIterable<RawMessageStreamEvent>,
  builder: AssistantMessageBuilder,
  progress: StreamProgress,
): AsyncGenerator<ProviderEvent> {
  const blockIndex = new Map<number, number>();
  let stopReason: string | null | undefined;
  for await (const event of events) {
    progress.responseStarted = true;
    switch (event.type) {
      case "message_start":
        builder.message.responseId = event.message.id;
        builder.message.responseModel = event.message.model;
        builder.updateUsage(mapAnthropicUsage(event.message.usage));
        break;
      case "content_block_start": {
        const block = event.content_block;
        let opened: { index: number; event: ProviderEvent } | undefined;
        if (block.type === "text") opened = builder.openText();
        else if (block.type === "thinking")
          opened = builder.openThinking({ signature: block.signature || undefined });
        else if (block.type === "redacted_thinking") {
          opened = builder.openThinking({ signature: block.data, redacted: true, thinking: "[redacted]" });
        } else if (block.type === "tool_use") opened = builder.openToolCall(block.id, block.name);
        if (!opened) break;
        blockIndex.set(event.index, opened.index);
        yield opened.event;
        if (block.type === "text" && block.text) yield builder.appendText(opened.index, block.text);
        if (block.type === "thinking" && block.thinking)
          yield builder.appendThinking(opened.index, block.thinking);
        break;
      }
      case "content_block_delta": {
        const index = blockIndex.get(event.index);
        if (index === undefined) break;
        const delta = event.delta;
        if (delta.type === "text_delta") yield builder.appendText(index, delta.text);
        else if (delta.type === "thinking_delta") yield builder.appendThinking(index, delta.thinking);
        else if (delta.type === "signature_delta") builder.appendThinkingSignature(index, delta.signature);
        else if (delta.type === "input_json_delta")
          yield builder.appendToolArguments(index, delta.partial_json);
        break;
      }
      case "content_block_stop": {
        const index = blockIndex.get(event.index);
        const end = index === undefined ? undefined : builder.close(index);
        if (end) yield end;
        break;
      }
      case "message_delta":
        stopReason = event.delta.stop_reason;
        builder.updateUsage(mapAnthropicUsage(event.usage));
        break;
      case "message_stop": {
        const mapped = mapAnthropicStopReason(stopReason);
        if (mapped === "refused") {
          throw new ProviderError(
            "PROVIDER_CONTENT_REFUSED",
            `Anthropic: the model declined to answer (${stopReason})`,
            {
              provider: builder.message.provider,
              providerCode: stopReason ?? undefined,
            },
          );
        }
        yield* builder.finish(mapped);
        return;
      }
    }
  }
}
