import { ArborError } from "../errors/arbor-error";
import { ProviderError, type ProviderErrorCode } from "../errors/provider-error";
import { AssistantMessageBuilder } from "../internal/assistant-message-builder";
import { sleep } from "../internal/sleep";
import type { TextContent, ThinkingContent, ToolCall, Usage } from "../message";
import type { Provider, ProviderRequest, StreamOptions } from "../provider/provider";
import type { ProviderEvent } from "../provider/provider-event";

/** A scripted successful response. */
export interface ScriptedResponse {
  content: Array<TextContent | ThinkingContent | ToolCall>;
  /** Default `"toolUse"` when `content` has a tool call, else `"stop"`. */
  stopReason?: "stop" | "length" | "toolUse";
  /** Token counts; `totalTokens` is computed when absent. */
  usage?: Partial<Omit<Usage, "cost">>;
  /** Characters per delta event. Default: each block in one delta. */
  chunkSize?: number;
  /** Wait before each content event (lets a test abort mid-stream). */
  eventDelayMs?: number;
}

/** A scripted failure: the stream ends with an `error` event carrying this code. */
export interface ScriptedFault {
  error: ProviderErrorCode;
  /** Default: a realistic message for the code (overflow messages match `isContextOverflow`). */
  message?: string;
  status?: number;
  retryAfterMs?: number;
  /** Content streamed before the failure; kept in the error message. */
  partial?: Array<TextContent | ThinkingContent | ToolCall>;
}

/** One script entry: data, or a function of the request that returns data. */
export type ScriptedStep =
  | ScriptedResponse
  | ScriptedFault
  | ((request: ProviderRequest, options: StreamOptions) => ScriptedResponse | ScriptedFault);

/** A `stream()` call as recorded by the scripted provider (no signal, no API key). */
export interface RecordedCall {
  request: ProviderRequest;
  options: Omit<StreamOptions, "signal" | "apiKey"> & { hasSignal: boolean; hasApiKey: boolean };
}

/** A provider that replays a script, for unit tests of the layers above providers. */
export interface ScriptedProvider extends Provider {
  /** Every call so far, oldest first (requests are deep copies taken at call time). */
  readonly calls: readonly RecordedCall[];
  /** Script entries not yet used. */
  readonly remaining: number;
  /** Appends entries to the script. */
  push(...steps: ScriptedStep[]): void;
}

const DEFAULT_MESSAGES: Partial<Record<ProviderErrorCode, string>> = {
  PROVIDER_CONTEXT_OVERFLOW: "Scripted API error (400): prompt is too long: 210000 tokens > 200000 maximum",
  PROVIDER_RATE_LIMITED: "Scripted API error (429): rate limit exceeded",
  PROVIDER_SERVER_ERROR: "Scripted API error (500): internal server error",
  PROVIDER_ABORTED: "Request was aborted",
};

function* emitBlock(
  builder: AssistantMessageBuilder,
  block: TextContent | ThinkingContent | ToolCall,
  size: number,
) {
  const pieces = (text: string) => {
    const result: string[] = [];
    for (let start = 0; start < text.length; start += size) result.push(text.slice(start, start + size));
    return result;
  };
  if (block.type === "text") {
    const { index, event } = builder.openText();
    yield event;
    for (const piece of pieces(block.text)) yield builder.appendText(index, piece);
    if (block.textSignature) builder.setTextSignature(index, block.textSignature);
    return index;
  }
  if (block.type === "thinking") {
    const { index, event } = builder.openThinking({
      signature: block.thinkingSignature,
      redacted: block.redacted,
    });
    yield event;
    for (const piece of pieces(block.thinking)) yield builder.appendThinking(index, piece);
    return index;
  }
  const { index, event } = builder.openToolCall(block.id, block.name);
  yield event;
  for (const piece of pieces(JSON.stringify(block.arguments)))
    yield builder.appendToolArguments(index, piece);
  return index;
}

/**
 * Creates an in-process provider that answers each `stream()` call with the next script entry,
 * emitting the same event sequence as a real adapter (`start`, block events, `done` / `error`).
 * Faults end with an `error` event (no retries). The signal is honoured between events: an abort
 * ends the stream with stop reason `"aborted"` and the content so far. Every call is recorded.
 *
 * @throws ArborError `SCRIPT_EXHAUSTED` from `stream()` when no entry is left (a test bug).
 */
export function createScriptedProvider(
  script: ScriptedStep[] = [],
  options: { name?: string } = {},
): ScriptedProvider {
  const steps = [...script];
  const calls: RecordedCall[] = [];
  const name = options.name ?? "scripted";
  return {
    specificationVersion: "v1",
    name,
    get calls() {
      return calls;
    },
    get remaining() {
      return steps.length;
    },
    push(...more) {
      steps.push(...more);
    },
    stream(request, streamOptions = {}) {
      const next = steps.shift();
      if (next === undefined) {
        throw new ArborError(
          "SCRIPT_EXHAUSTED",
          `${name}: stream() call ${calls.length + 1} has no script entry left`,
        );
      }
      const { signal, apiKey, ...rest } = streamOptions;
      calls.push({
        request: structuredClone(request),
        options: {
          ...structuredClone(rest),
          hasSignal: signal !== undefined,
          hasApiKey: apiKey !== undefined,
        },
      });
      const step = typeof next === "function" ? next(request, streamOptions) : next;
      return play(request, step, signal);
    },
  };
}

async function* play(
  request: ProviderRequest,
  step: ScriptedResponse | ScriptedFault,
  signal: AbortSignal | undefined,
): AsyncGenerator<ProviderEvent> {
  const builder = new AssistantMessageBuilder(request.model);
  const provider = request.model.provider;
  yield builder.startEvent();
  const isFault = "error" in step;
  const blocks = isFault ? (step.partial ?? []) : step.content;
  const delay = isFault ? 0 : (step.eventDelayMs ?? 0);
  const size = isFault ? Number.MAX_SAFE_INTEGER : (step.chunkSize ?? Number.MAX_SAFE_INTEGER);
  if (!isFault && step.usage) builder.updateUsage(step.usage);
  for (const block of blocks) {
    const events = emitBlock(builder, block, size);
    for (;;) {
      // Check the signal before producing the next event: producing it updates the message.
      if (delay > 0) await sleep(delay, signal);
      if (signal?.aborted) {
        yield builder.fail(new ProviderError("PROVIDER_ABORTED", "Request was aborted", { provider }));
        return;
      }
      const result = events.next();
      if (!result.done) {
        yield result.value;
        continue;
      }
      const end = isFault ? undefined : builder.close(result.value);
      if (end) yield end;
      break;
    }
  }
  if (isFault) {
    const message = step.message ?? DEFAULT_MESSAGES[step.error] ?? `Scripted failure: ${step.error}`;
    yield builder.fail(
      new ProviderError(step.error, message, {
        provider,
        status: step.status,
        retryAfterMs: step.retryAfterMs,
      }),
    );
    return;
  }
  if (signal?.aborted) {
    yield builder.fail(new ProviderError("PROVIDER_ABORTED", "Request was aborted", { provider }));
    return;
  }
  const hasToolCall = step.content.some((block) => block.type === "toolCall");
  yield* builder.finish(step.stopReason ?? (hasToolCall ? "toolUse" : "stop"));
}
