import type { ResponseOutputItem, ResponseStreamEvent } from "openai/resources/responses/responses";
import { classifyProviderError } from "../errors/classify-provider-error";
import { ProviderError } from "../errors/provider-error";
import type { AssistantMessageBuilder } from "../internal/assistant-message-builder";
import type { StreamProgress } from "../internal/stream-progress";
import type { ProviderEvent } from "../provider/provider-event";
import { mapOpenAIUsage } from "./map-openai-usage";

type Opened = { index: number; event: ProviderEvent };

/**
 * Turns Responses API stream events into provider events on `builder`. Output text (and refusal
 * text) becomes text blocks signed with their `msg_` item id; reasoning items become thinking
 * blocks (summary text streamed, the whole item with its encrypted content kept as the signature
 * for replay); function calls become tool calls keyed by `call_id`. `response.completed` and
 * `response.incomplete` yield the `done` sequence (`"length"` when the output limit was hit);
 * `response.failed` and `error` events throw a classified `ProviderError`. Returns without `done`
 * when the stream ends early.
 */
export async function* translateOpenAIResponsesStream(
  events: AsyncIterable<ResponseStreamEvent>,
  builder: AssistantMessageBuilder,
  progress: StreamProgress,
): AsyncGenerator<ProviderEvent> {
  const provider = builder.message.provider;
  const items = new Map<number, number>();
  const texts = new Map<string, number>();
  let toolCalls = 0;
  const openTextFor = function* (
    outputIndex: number,
    contentIndex: number,
  ): Generator<ProviderEvent, number> {
    const key = `${outputIndex}:${contentIndex}`;
    const existing = texts.get(key);
    if (existing !== undefined) return existing;
    const opened = builder.openText();
    texts.set(key, opened.index);
    yield opened.event;
    return opened.index;
  };
  for await (const event of events) {
    progress.responseStarted = true;
    switch (event.type) {
      case "response.created":
        builder.message.responseId = event.response.id;
        builder.message.responseModel = event.response.model;
        break;
      case "response.output_item.added": {
        let opened: Opened | undefined;
        if (event.item.type === "reasoning") opened = builder.openThinking();
        else if (event.item.type === "function_call") {
          opened = builder.openToolCall(event.item.call_id, event.item.name);
          toolCalls++;
        }
        if (!opened) break;
        items.set(event.output_index, opened.index);
        yield opened.event;
        break;
      }
      case "response.output_text.delta":
      case "response.refusal.delta": {
        const index = yield* openTextFor(event.output_index, event.content_index);
        yield builder.appendText(index, event.delta);
        break;
      }
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta": {
        const index = items.get(event.output_index);
        if (index !== undefined) yield builder.appendThinking(index, event.delta);
        break;
      }
      case "response.reasoning_summary_part.added": {
        const index = items.get(event.output_index);
        if (index !== undefined && event.summary_index > 0) yield builder.appendThinking(index, "\n\n");
        break;
      }
      case "response.function_call_arguments.delta": {
        const index = items.get(event.output_index);
        if (index !== undefined) yield builder.appendToolArguments(index, event.delta);
        break;
      }
      case "response.output_item.done":
        yield* closeItem(builder, event.output_index, event.item, items, texts);
        break;
      case "response.completed":
      case "response.incomplete": {
        if (event.response.usage) builder.updateUsage(mapOpenAIUsage(event.response.usage));
        const reason = event.response.incomplete_details?.reason;
        if (reason === "content_filter") {
          throw new ProviderError(
            "PROVIDER_CONTENT_REFUSED",
            `${provider}: the response was filtered (${reason})`,
            {
              provider,
              providerCode: reason,
            },
          );
        }
        if (event.type === "response.incomplete") yield* builder.finish("length");
        else yield* builder.finish(toolCalls > 0 ? "toolUse" : "stop");
        return;
      }
      case "response.failed":
        throw classifyProviderError(
          undefined,
          { error: event.response.error ?? { message: "response failed" } },
          undefined,
          {
            provider,
          },
        );
      case "error":
        throw classifyProviderError(
          undefined,
          { error: { message: event.message, code: event.code } },
          undefined,
          {
            provider,
          },
        );
    }
  }
}

function* closeItem(
  builder: AssistantMessageBuilder,
  outputIndex: number,
  item: ResponseOutputItem,
  items: Map<number, number>,
  texts: Map<string, number>,
): Generator<ProviderEvent> {
  const blocks: number[] = [];
  if (item.type === "message") {
    for (const [key, index] of texts) {
      if (!key.startsWith(`${outputIndex}:`)) continue;
      builder.setTextSignature(index, item.id);
      blocks.push(index);
    }
  } else {
    const index = items.get(outputIndex);
    if (index === undefined) return;
    if (item.type === "reasoning") {
      const block = builder.message.content[index];
      const summary = item.summary.map((part) => part.text).join("\n\n");
      if (block?.type === "thinking" && block.thinking === "" && summary !== "") block.thinking = summary;
      builder.setThinkingSignature(index, JSON.stringify(item));
    } else if (item.type === "function_call") {
      builder.setToolArguments(index, item.arguments);
    }
    blocks.push(index);
  }
  for (const index of blocks) {
    const end = builder.close(index);
    if (end) yield end;
  }
}
