import type { AssistantMessage, Model, ProviderEvent, Tool } from "@arbor/providers";
import type { AgentLoopConfig } from "../agent-loop-config";
import type { AgentMessage } from "../agent-message";
import { convertToLlm as defaultConvertToLlm } from "../convert-to-llm";
import { normalizeContext as defaultNormalizeContext } from "../normalize-context";
import { createFailedAssistantMessage } from "./create-failed-assistant-message";
import type { SerialEmitter } from "./serial-emitter";

/** What {@link streamAssistantResponse} needs for one request. */
export interface StreamAssistantResponseInput {
  config: AgentLoopConfig;
  model: Model;
  context: readonly AgentMessage[];
  toolDeclarations: Tool[];
  signal: AbortSignal;
  emitter: SerialEmitter;
}

/** Error message of the response that stands in for a request never sent because of an abort. */
export const ABORTED_BEFORE_REQUEST = "The run was aborted before the request was sent.";

/**
 * Runs the three seams (transformContext, convertToLlm, normalizeContext), streams one response and
 * resolves its final assistant message. Emits `message_start`, `message_update` per provider
 * event, and `message_end`. Never rejects for seam, provider or abort failures: they become an
 * assistant message with stop reason `error` or `aborted`. Rejects only when the emitter does.
 */
export async function streamAssistantResponse(
  input: StreamAssistantResponseInput,
): Promise<AssistantMessage> {
  const { config, model, signal, emitter } = input;
  if (signal.aborted)
    return emitWhole(input, createFailedAssistantMessage(model, "aborted", ABORTED_BEFORE_REQUEST));
  let stage = "transformContext";
  let events: AsyncIterable<ProviderEvent>;
  try {
    const transformed = config.transformContext
      ? await config.transformContext(input.context, signal)
      : input.context;
    stage = "convertToLlm";
    const converted = await (config.convertToLlm ?? defaultConvertToLlm)(transformed);
    stage = "systemPrompt";
    const systemPrompt =
      typeof config.systemPrompt === "function" ? await config.systemPrompt() : config.systemPrompt;
    stage = "normalizeContext";
    const normalized = await (config.normalizeContext ?? defaultNormalizeContext)({
      messages: converted,
      systemPrompt,
      tools: input.toolDeclarations,
      model,
    });
    stage = `provider "${config.provider.name}"`;
    events = config.provider.stream({ ...normalized, model }, { ...config.streamOptions, signal });
  } catch (error) {
    return emitWhole(
      input,
      createFailedAssistantMessage(model, "error", `${stage} failed: ${describe(error)}`),
    );
  }
  if (signal.aborted)
    return emitWhole(input, createFailedAssistantMessage(model, "aborted", ABORTED_BEFORE_REQUEST));

  let partial: AssistantMessage | undefined;
  let started = false;
  const start = async (message: AssistantMessage) => {
    if (started) return;
    started = true;
    await emitter.emit({ type: "message_start", message });
  };
  const finish = async (message: AssistantMessage) => {
    await start(message);
    await emitter.emit({ type: "message_end", message });
    return message;
  };
  let iterator: AsyncIterator<ProviderEvent> | undefined;
  try {
    iterator = events[Symbol.asyncIterator]();
    while (true) {
      const step = await nextOrAbort(iterator, signal);
      if (step === "aborted") {
        void iterator.return?.()?.catch(() => {});
        return finish(
          createFailedAssistantMessage(
            model,
            "aborted",
            "The run was aborted while the response streamed.",
            partial,
          ),
        );
      }
      if (step.done) break;
      const event = step.value;
      if (event.type === "done" || event.type === "error") return finish(event.message);
      if ("partial" in event) partial = event.partial;
      if (partial === undefined) continue;
      await start(partial);
      if (event.type !== "start")
        await emitter.emit({ type: "message_update", message: partial, assistantMessageEvent: event });
    }
  } catch (error) {
    if (emitter.failed) throw error;
    return finish(
      createFailedAssistantMessage(
        model,
        "error",
        `provider "${config.provider.name}" stream failed: ${describe(error)}`,
        partial,
      ),
    );
  }
  return finish(
    createFailedAssistantMessage(
      model,
      "error",
      `provider "${config.provider.name}" ended its stream without a done or error event`,
      partial,
    ),
  );
}

async function emitWhole(
  input: StreamAssistantResponseInput,
  message: AssistantMessage,
): Promise<AssistantMessage> {
  await input.emitter.emit({ type: "message_start", message });
  await input.emitter.emit({ type: "message_end", message });
  return message;
}

function nextOrAbort(
  iterator: AsyncIterator<ProviderEvent>,
  signal: AbortSignal,
): Promise<IteratorResult<ProviderEvent> | "aborted"> {
  if (signal.aborted) return Promise.resolve("aborted");
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve("aborted");
    signal.addEventListener("abort", onAbort, { once: true });
    iterator.next().then(
      (result) => {
        signal.removeEventListener("abort", onAbort);
        resolve(result);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
