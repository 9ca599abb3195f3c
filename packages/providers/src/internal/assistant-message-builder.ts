import { createEmptyUsage } from "../create-empty-usage";
import { ProviderError } from "../errors/provider-error";
import type { AssistantMessage, StopReason, TextContent, ThinkingContent, ToolCall, Usage } from "../message";
import { calculateCost } from "../model/calculate-cost";
import type { Model } from "../model/model";
import type { ProviderEvent } from "../provider/provider-event";
import { parsePartialJson } from "./parse-partial-json";

/**
 * Builds one streamed assistant message and the events that describe it. Adapters and the scripted
 * provider feed it; it keeps `message` (the `partial` of every event) consistent with the events.
 * Not exported from the package.
 */
export class AssistantMessageBuilder {
  readonly message: AssistantMessage;
  private readonly model: Model;
  private readonly open = new Set<number>();
  private readonly rawArguments = new Map<number, string>();

  constructor(model: Model, now: number = Date.now()) {
    this.model = model;
    this.message = {
      role: "assistant",
      content: [],
      api: model.api,
      provider: model.provider,
      model: model.id,
      usage: createEmptyUsage(),
      stopReason: "stop",
      timestamp: now,
    };
  }

  /** True once any content block was opened. */
  get hasContent(): boolean {
    return this.message.content.length > 0;
  }

  /** Content indexes of blocks opened and not yet closed, in opening order. */
  get openBlocks(): number[] {
    return [...this.open];
  }

  startEvent(): ProviderEvent {
    return { type: "start", partial: this.message };
  }

  openText(): { index: number; event: ProviderEvent } {
    const index = this.push({ type: "text", text: "" });
    return { index, event: { type: "text-start", contentIndex: index, partial: this.message } };
  }

  appendText(index: number, delta: string): ProviderEvent {
    this.block<TextContent>(index, "text").text += delta;
    return { type: "text-delta", contentIndex: index, delta, partial: this.message };
  }

  setTextSignature(index: number, signature: string): void {
    this.block<TextContent>(index, "text").textSignature = signature;
  }

  openThinking(init: { signature?: string; redacted?: boolean; thinking?: string } = {}): {
    index: number;
    event: ProviderEvent;
  } {
    const block: ThinkingContent = { type: "thinking", thinking: init.thinking ?? "" };
    if (init.signature !== undefined) block.thinkingSignature = init.signature;
    if (init.redacted) block.redacted = true;
    const index = this.push(block);
    return { index, event: { type: "thinking-start", contentIndex: index, partial: this.message } };
  }

  appendThinking(index: number, delta: string): ProviderEvent {
    this.block<ThinkingContent>(index, "thinking").thinking += delta;
    return { type: "thinking-delta", contentIndex: index, delta, partial: this.message };
  }

  /** Appends to the thinking signature (Anthropic streams it in pieces). */
  appendThinkingSignature(index: number, delta: string): void {
    const block = this.block<ThinkingContent>(index, "thinking");
    block.thinkingSignature = (block.thinkingSignature ?? "") + delta;
  }

  setThinkingSignature(index: number, signature: string): void {
    this.block<ThinkingContent>(index, "thinking").thinkingSignature = signature;
  }

  openToolCall(id: string, name: string): { index: number; event: ProviderEvent } {
    const index = this.push({ type: "toolCall", id, name, arguments: {} });
    this.rawArguments.set(index, "");
    return { index, event: { type: "toolcall-start", contentIndex: index, id, name, partial: this.message } };
  }

  appendToolArguments(index: number, delta: string): ProviderEvent {
    const raw = (this.rawArguments.get(index) ?? "") + delta;
    this.rawArguments.set(index, raw);
    this.block<ToolCall>(index, "toolCall").arguments = parsePartialJson(raw);
    return { type: "toolcall-delta", contentIndex: index, delta, partial: this.message };
  }

  /** Replaces the raw argument text (for APIs that resend the complete arguments at the end). */
  setToolArguments(index: number, raw: string): void {
    this.rawArguments.set(index, raw);
    this.block<ToolCall>(index, "toolCall").arguments = parsePartialJson(raw);
  }

  /** Closes one block and returns its end event; closing a closed block returns nothing. */
  close(index: number): ProviderEvent | undefined {
    if (!this.open.delete(index)) return undefined;
    const block = this.message.content[index];
    if (!block) return undefined;
    if (block.type === "text")
      return { type: "text-end", contentIndex: index, text: block.text, partial: this.message };
    if (block.type === "thinking") {
      return { type: "thinking-end", contentIndex: index, thinking: block.thinking, partial: this.message };
    }
    this.rawArguments.delete(index);
    return { type: "toolcall-end", contentIndex: index, toolCall: block, partial: this.message };
  }

  /** Closes every open block in opening order and returns their end events. */
  closeAll(): ProviderEvent[] {
    return this.openBlocks.map((index) => this.close(index)).filter((event) => event !== undefined);
  }

  /** Merges reported token counts into `usage` and recomputes `totalTokens` when not given. */
  updateUsage(update: Partial<Omit<Usage, "cost">>): void {
    const usage = this.message.usage;
    Object.assign(usage, update);
    if (update.totalTokens === undefined) {
      usage.totalTokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
    }
  }

  /** Drops all content and usage, for a retry after a failed attempt. */
  reset(): void {
    this.message.content.length = 0;
    this.open.clear();
    this.rawArguments.clear();
    this.message.usage = createEmptyUsage();
    delete this.message.responseId;
    delete this.message.responseModel;
  }

  /** Final event of a successful response. Closes blocks still open and prices the usage. */
  finish(stopReason: Exclude<StopReason, "error" | "aborted">): ProviderEvent[] {
    const ends = this.closeAll();
    this.message.stopReason = stopReason;
    this.message.usage.cost = calculateCost(this.model, this.message.usage);
    return [...ends, { type: "done", message: this.message }];
  }

  /**
   * Final event of a failed response. Open blocks stay as they are (no end events), partial tool
   * arguments keep their best-effort parse, and the usage received so far is priced.
   */
  fail(error: ProviderError): ProviderEvent {
    this.open.clear();
    this.rawArguments.clear();
    this.message.stopReason = error.code === "PROVIDER_ABORTED" ? "aborted" : "error";
    this.message.errorMessage = error.message;
    this.message.usage.cost = calculateCost(this.model, this.message.usage);
    return { type: "error", message: this.message, error };
  }

  private push(block: AssistantMessage["content"][number]): number {
    const index = this.message.content.push(block) - 1;
    this.open.add(index);
    return index;
  }

  private block<T extends AssistantMessage["content"][number]>(index: number, type: T["type"]): T {
    const block = this.message.content[index];
    if (!block || block.type !== type) {
      // Only a malformed provider stream can refer to a block that is not there.
      throw new ProviderError(
        "PROVIDER_INVALID_RESPONSE",
        `${this.message.provider}: stream refers to block ${index} as ${type}`,
        {
          provider: this.message.provider,
        },
      );
    }
    return block as T;
  }
}
