import type { AssistantMessage, StopReason, Tool, ToolCall, ToolResultMessage } from "@arbor/providers";
import type { AgentLoopConfig, AgentLoopResult } from "./agent-loop-config";
import { AgentLoopError } from "./agent-loop-error";
import type { AgentMessage } from "./agent-message";
import type { AgentTool } from "./agent-tool";
import { createFailedAssistantMessage } from "./internal/create-failed-assistant-message";
import { executeToolCalls } from "./internal/execute-tool-calls";
import { createSerialEmitter, type SerialEmitter } from "./internal/serial-emitter";
import { streamAssistantResponse } from "./internal/stream-assistant-response";
import { truncatedToolCallText } from "./internal/tool-result-texts";
import { validateLoopConfig } from "./internal/validate-loop-config";

/**
 * Runs the agent loop: appends `prompts`, streams an assistant response, runs the tool calls it
 * asks for, appends the results, and repeats until the model stops without tool calls and no
 * steering or follow-up message is waiting. Events go to `config.onEvent` in the order documented on
 * `AgentEvent` (agent_start … agent_end, every turn bracketed by turn_start / turn_end).
 *
 * Before every request the seams run in this order: `transformContext` → `convertToLlm` →
 * `normalizeContext`, then `provider.stream`.
 *
 * - **Tool calls** run per tool `executionMode` (see `AgentTool`). An unknown tool, invalid
 *   arguments or a throwing tool become error tool results. The tool calls of a response that
 *   stopped at `length` are not run: each gets an error result (the run goes on, so the model can
 *   repeat them). A response with stop reason `error` or `aborted` runs no tools and ends the run.
 * - **Failures** never throw: a seam, hook or provider failure ends the run with an assistant
 *   message whose stop reason is `error` and whose `errorMessage` says what failed.
 * - **Abort** (`config.signal`): the streaming response is cancelled and ends as `aborted`, running
 *   tools are abandoned with aborted error results (tools not started yet get them too), no new
 *   turn starts, and `agent_end` reports stop reason `aborted`.
 *
 * Does not mutate `config.messages` or `config.prompts`.
 *
 * @throws AgentLoopError `AGENT_LOOP_CONFIG_INVALID` (rejected before `agent_start`) for an
 * unusable config; `AGENT_LOOP_EVENT_HANDLER_FAILED` when `onEvent` throws (the run is aborted first).
 */
export async function runAgentLoop(config: AgentLoopConfig): Promise<AgentLoopResult> {
  const tools = validateLoopConfig(config);
  const controller = new AbortController();
  const forwardAbort = () => controller.abort(config.signal?.reason);
  if (config.signal?.aborted) forwardAbort();
  config.signal?.addEventListener("abort", forwardAbort, { once: true });
  let handlerError: { error: unknown } | undefined;
  const emitter = createSerialEmitter(config.onEvent, (error) => {
    handlerError = { error };
    controller.abort(error);
  });
  try {
    return await runTurns(config, tools, controller.signal, emitter);
  } catch (error) {
    if (handlerError === undefined) throw error;
    const reason =
      handlerError.error instanceof Error ? handlerError.error.message : String(handlerError.error);
    throw new AgentLoopError("AGENT_LOOP_EVENT_HANDLER_FAILED", `runAgentLoop: onEvent threw: ${reason}`, {
      cause: handlerError.error,
    });
  } finally {
    config.signal?.removeEventListener("abort", forwardAbort);
  }
}

async function runTurns(
  config: AgentLoopConfig,
  tools: ReadonlyMap<string, AgentTool>,
  signal: AbortSignal,
  emitter: SerialEmitter,
): Promise<AgentLoopResult> {
  let context: AgentMessage[] = [...config.messages];
  const appended: AgentMessage[] = [];
  let model = config.model;
  const toolDeclarations: Tool[] = [...tools.values()].map(({ name, description, parameters }) => ({
    name,
    description,
    parameters,
  }));
  const append = async (message: AgentMessage, announce: boolean) => {
    context.push(message);
    appended.push(message);
    if (!announce) return;
    await emitter.emit({ type: "message_start", message });
    await emitter.emit({ type: "message_end", message });
  };
  // A hook that failed before a request; the next turn reports it instead of sending the request.
  let failure: string | undefined;
  const poll = async (name: string, source: AgentLoopConfig["getSteeringMessages"]) => {
    if (source === undefined || failure !== undefined) return [];
    try {
      return [...(await source())];
    } catch (error) {
      failure = `${name} failed: ${describe(error)}`;
      return [];
    }
  };

  // A boundary's request for one more turn; a throw becomes the next turn's failure (an error turn).
  const continuation = async (): Promise<boolean> => {
    if (config.requestContinuation === undefined) return false;
    try {
      return (await config.requestContinuation()) === true;
    } catch (error) {
      failure = `requestContinuation failed: ${describe(error)}`;
      return true;
    }
  };

  await emitter.emit({ type: "agent_start" });
  let pending: AgentMessage[] = [...(config.prompts ?? [])];
  pending.push(...(await poll("getSteeringMessages", config.getSteeringMessages)));
  let stopReason: StopReason;
  let previous: { message: AssistantMessage; toolResults: ToolResultMessage[] } | undefined;
  for (let turnIndex = 0; ; turnIndex++) {
    if (previous !== undefined && failure === undefined && config.prepareNextTurn !== undefined) {
      try {
        const update = await config.prepareNextTurn({
          turnIndex,
          messages: context,
          lastMessage: previous.message,
          toolResults: previous.toolResults,
          signal,
        });
        if (update?.messages !== undefined) context = [...update.messages];
        if (update?.model !== undefined) model = update.model;
      } catch (error) {
        failure = `prepareNextTurn failed: ${describe(error)}`;
      }
      // Preparation may take long: pick up steering that arrived meanwhile.
      if (pending.length === 0) pending = await poll("getSteeringMessages", config.getSteeringMessages);
    }
    await emitter.emit({ type: "turn_start", turnIndex, timestamp: Date.now() });
    for (const message of pending) await append(message, true);
    pending = [];

    const message =
      failure === undefined
        ? await streamAssistantResponse({ config, model, context, toolDeclarations, signal, emitter })
        : await emitFailure(emitter, createFailedAssistantMessage(model, "error", failure));
    await append(message, false);
    if (message.stopReason === "error" || message.stopReason === "aborted") {
      await emitter.emit({ type: "turn_end", turnIndex, message, toolResults: [] });
      stopReason = message.stopReason;
      break;
    }
    const toolCalls = message.content.filter((block): block is ToolCall => block.type === "toolCall");
    const toolResults =
      toolCalls.length === 0
        ? []
        : await executeToolCalls({
            toolCalls,
            tools,
            defaultMode: config.toolExecution ?? "parallel",
            signal,
            emitter,
            ...(message.stopReason === "length" ? { skipWith: truncatedToolCallText } : {}),
            ...(config.beforeToolCall ? { beforeToolCall: config.beforeToolCall } : {}),
            ...(config.afterToolCall ? { afterToolCall: config.afterToolCall } : {}),
          });
    for (const result of toolResults) await append(result, false);
    await emitter.emit({ type: "turn_end", turnIndex, message, toolResults });
    if (signal.aborted) {
      stopReason = "aborted";
      break;
    }
    previous = { message, toolResults };
    pending = await poll("getSteeringMessages", config.getSteeringMessages);
    if (toolCalls.length === 0 && pending.length === 0 && failure === undefined) {
      pending = await poll("getFollowUpMessages", config.getFollowUpMessages);
      if (pending.length === 0 && failure === undefined && !(await continuation())) {
        stopReason = message.stopReason;
        break;
      }
    }
  }
  await emitter.emit({ type: "agent_end", messages: appended, stopReason });
  return { messages: appended, context, stopReason };
}

async function emitFailure(emitter: SerialEmitter, message: AssistantMessage): Promise<AssistantMessage> {
  await emitter.emit({ type: "message_start", message });
  await emitter.emit({ type: "message_end", message });
  return message;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
