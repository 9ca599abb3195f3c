/**
 * A structural scripted provider for the loop's tests, used until `@arbor/providers/testing` ships
 * `createScriptedProvider`. Each `stream` call consumes the next scripted response and emits the
 * provider protocol: `start`, content events per block, then `done` (or `error`).
 */
import { type AssistantMessage, createEmptyUsage, type StopReason, type ToolCall } from "@arbor/providers";
import type {
  Model,
  Provider,
  ProviderEvent,
  ProviderRequest,
  StreamOptions,
} from "../../src/internal/provider-contract";

export type ScriptedBlock =
  | { type: "text"; text: string }
  | { type: "toolCall"; id: string; name: string; arguments: Record<string, unknown> };

export interface ScriptedResponse {
  content?: ScriptedBlock[];
  stopReason?: StopReason;
  errorMessage?: string;
  /** Never finish after the content: wait until the request's signal aborts. */
  hang?: boolean;
}

export interface ScriptedProvider extends Provider {
  requests: Array<{ request: ProviderRequest; options: StreamOptions | undefined }>;
}

export const testModel: Model = {
  id: "scripted-model",
  provider: "scripted",
  api: "scripted-api",
  contextWindow: 100_000,
  maxTokens: 4_096,
};

export function createTestProvider(responses: ScriptedResponse[]): ScriptedProvider {
  const queue = [...responses];
  const requests: ScriptedProvider["requests"] = [];
  return {
    specificationVersion: "v1",
    name: "scripted",
    requests,
    stream(request, options) {
      requests.push({ request, options });
      const response = queue.shift();
      if (response === undefined) throw new Error(`no scripted response left for request ${requests.length}`);
      return play(request.model, response, options?.signal);
    },
  };
}

async function* play(
  model: Model,
  response: ScriptedResponse,
  signal: AbortSignal | undefined,
): AsyncGenerator<ProviderEvent> {
  const partial: AssistantMessage = {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: createEmptyUsage(),
    stopReason: "stop",
    timestamp: Date.now(),
  };
  yield { type: "start", partial };
  for (const block of response.content ?? []) {
    const contentIndex = partial.content.length;
    if (block.type === "text") {
      partial.content.push({ type: "text", text: "" });
      yield { type: "text-start", contentIndex, partial };
      const text = partial.content[contentIndex] as { text: string };
      text.text = block.text;
      yield { type: "text-delta", delta: block.text, contentIndex, partial };
      yield { type: "text-end", text: block.text, contentIndex, partial };
    } else {
      const call: ToolCall = { type: "toolCall", id: block.id, name: block.name, arguments: {} };
      partial.content.push(call);
      yield { type: "toolcall-start", id: block.id, name: block.name, contentIndex, partial };
      call.arguments = block.arguments;
      yield { type: "toolcall-delta", delta: JSON.stringify(block.arguments), contentIndex, partial };
      yield { type: "toolcall-end", toolCall: call, contentIndex, partial };
    }
  }
  if (response.hang) {
    await new Promise<void>((resolve) => signal?.addEventListener("abort", () => resolve(), { once: true }));
    yield {
      type: "error",
      message: { ...partial, stopReason: "aborted", errorMessage: "aborted" },
      error: new Error("aborted"),
    };
    return;
  }
  const stopReason =
    response.stopReason ?? (partial.content.some((block) => block.type === "toolCall") ? "toolUse" : "stop");
  const message: AssistantMessage = { ...partial, content: [...partial.content], stopReason };
  if (stopReason === "error" || stopReason === "aborted") {
    message.errorMessage = response.errorMessage ?? "scripted failure";
    yield { type: "error", message, error: new Error(message.errorMessage) };
    return;
  }
  yield { type: "done", message };
}
