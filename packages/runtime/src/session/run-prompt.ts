import {
  type AgentEvent,
  AgentLoopError,
  type AgentLoopResult,
  type AgentMessage,
  type TurnEndEvent as LoopTurnEndEvent,
  runAgentLoop,
} from "@arbor/agent-loop";
import type { AssistantMessage, StopReason } from "@arbor/providers";
import { SessionStorageError, SessionStoreError } from "@arbor/session-store";
import { compactBeforeNextResponse } from "../compaction/auto-compaction";
import { checkResponse } from "../compaction/check-response";
import type { AgentActivityOutcome, AgentBeforeSettleEvent, TurnEndEvent } from "../events/boundary-events";
import { acceptContinuation } from "../extensions/accept-continuation";
import { applyContextHook } from "../extensions/apply-context-hook";
import { runBoundary } from "../extensions/run-boundary";
import { createToolCallHooks } from "../extensions/tool-call-hooks";
import { persistMessage } from "../internal/persist-message";
import { routingSessionId } from "../internal/routing-session-id";
import type { RunState } from "../internal/run-state";
import { notify, type SessionCore } from "../internal/session-core";
import type { RuntimeError } from "../runtime-error";

/** What `session.prompt()` resolves with. */
export interface PromptResult {
  /** Every message this prompt appended to the session, in order (across a retry too). */
  messages: AgentMessage[];
  /** The last assistant response, if any request was made. */
  lastAssistant: AssistantMessage | undefined;
  /** Stop reason of the last loop run (`aborted` after `abort()`); undefined when no run started. */
  stopReason: StopReason | undefined;
  /** True when a failed attempt was omitted, the session compacted and the request sent again. */
  retried: boolean;
  /**
   * The session's own reason for stopping (`CONTEXT_STILL_TOO_LARGE`, `COMPACTION_LOOP_GUARD`,
   * `OVERFLOW_RECOVERY_FAILED`), also emitted as `session_error`. Model failures are not here: see
   * `lastAssistant.stopReason` / `errorMessage`.
   */
  error: RuntimeError | undefined;
}

function lastAssistantOf(messages: readonly AgentMessage[]): AssistantMessage | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role === "assistant") return message;
  }
  return undefined;
}

/**
 * One prompt, with pi's checks around the loop (see packages/runtime/docs/reference.md#when-the-session-compacts):
 * 1. before the prompt: the last response is checked (threshold, or overflow recovery without
 *    retry); a loop-guard stop ends the prompt here, before anything is written;
 * 2. the loop runs with the store's projection as context; every finished message is appended as the
 *    loop emits `message_end`; between turns the threshold is checked and the context replaced by
 *    the projection; before every request the projection (through the `context` hook) is sent;
 * 3. after the run: overflow or truncation recovery (omit, compact, one retry as a new loop run), or
 *    the threshold check; messages queued after the loop's last poll start another run.
 *
 * The caller holds the session lock. Rejects only when the store or a listener contract breaks.
 */
export async function runPrompt(
  core: SessionCore,
  run: RunState,
  prompts: AgentMessage[],
): Promise<PromptResult> {
  const appended: AgentMessage[] = [];
  let stopReason: StopReason | undefined;
  let retried = false;
  const finish = (): PromptResult => ({
    messages: appended,
    lastAssistant: lastAssistantOf(appended),
    stopReason,
    retried,
    error: run.error,
  });

  const previous = lastAssistantOf(core.store.getProjection().messages);
  if (previous !== undefined) await checkResponse(core, run, previous, { prePrompt: true });
  if (run.error !== undefined || run.signal.aborted) return finish();

  let pending = prompts;
  for (;;) {
    const result = await runLoop(core, run, pending);
    pending = [];
    appended.push(...result.messages);
    stopReason = result.stopReason;
    if (run.signal.aborted || run.error !== undefined) break;
    const last = lastAssistantOf(result.messages);
    if (last !== undefined) {
      const check = await checkResponse(core, run, last, { prePrompt: false });
      if (check.retry && !run.signal.aborted && run.error === undefined) {
        retried = true;
        continue;
      }
    }
    if (run.signal.aborted || run.error !== undefined) break;
    pending = [...core.steering.splice(0), ...core.followUps.splice(0)];
    if (pending.length === 0 && !(await beforeSettle(core, run, stopReason))) break;
  }
  // A prompt the session stopped (loop guard, failed recovery) settles with outcome "error"; an
  // aborted one skips the boundary (its handlers would get an aborted signal) and only settles.
  if (run.error !== undefined && !run.signal.aborted) await beforeSettle(core, run, stopReason);
  await notify(core, { type: "agent_settled", aborted: run.signal.aborted });
  return finish();
}

/** How a run's last stop reason reads as pi's activity outcome. */
function outcomeOf(run: RunState, stopReason: StopReason | undefined): AgentActivityOutcome {
  if (run.signal.aborted || stopReason === "aborted") return "aborted";
  return run.error !== undefined || stopReason === "error" ? "error" : "completed";
}

/**
 * pi's `agent_before_settle` boundary (after recovery, the threshold check and queued messages, so
 * its preview is the repaired projection). Not run for an aborted prompt. Returns true when a handler's `continue` is honoured:
 * the caller starts one more run with the context as it is.
 */
async function beforeSettle(
  core: SessionCore,
  run: RunState,
  stopReason: StopReason | undefined,
): Promise<boolean> {
  const boundary = await runBoundary<AgentBeforeSettleEvent>(
    core,
    { type: "agent_before_settle" },
    outcomeOf(run, stopReason),
    run.signal,
  );
  return (
    boundary.continue && (await acceptContinuation(core, run, "agent_before_settle", boundary.compacted))
  );
}

/**
 * The store's own error when writing a finished message failed (the loop reports it as its
 * `onEvent` handler failing): a caller of `prompt()` then sees the typed store error (for example
 * `SESSION_FILE_CHANGED` when another program deleted the session file), not the loop's wrapper.
 */
function unwrapStoreError(error: unknown): unknown {
  if (!AgentLoopError.isInstance(error) || error.code !== "AGENT_LOOP_EVENT_HANDLER_FAILED") return error;
  const cause = (error as { cause?: unknown }).cause;
  return SessionStorageError.isInstance(cause) || cause instanceof SessionStoreError ? cause : error;
}

async function runLoop(core: SessionCore, run: RunState, prompts: AgentMessage[]): Promise<AgentLoopResult> {
  try {
    return await startLoop(core, run, prompts);
  } catch (error) {
    throw unwrapStoreError(error);
  }
}

function startLoop(core: SessionCore, run: RunState, prompts: AgentMessage[]): Promise<AgentLoopResult> {
  const { options } = core;
  return runAgentLoop({
    provider: core.provider,
    model: core.model,
    messages: core.store.getProjection().messages,
    prompts,
    tools: options.tools,
    toolExecution: options.toolExecution,
    systemPrompt: options.systemPrompt,
    streamOptions: {
      ...options.streamOptions,
      sessionId: routingSessionId(core, "agent"),
      reasoning: core.thinkingLevel ?? options.streamOptions?.reasoning,
    },
    signal: run.signal,
    transformContext: (_messages, signal) =>
      applyContextHook(core.bus, core.store.getProjection().messages, signal),
    convertToLlm: options.convertToLlm,
    getSteeringMessages: () => core.steering.splice(0),
    getFollowUpMessages: () => core.followUps.splice(0),
    requestContinuation: () => {
      const requested = run.continueRequested;
      run.continueRequested = false;
      return requested;
    },
    prepareNextTurn: async () => {
      run.continueRequested = false;
      await compactBeforeNextResponse(core, run);
      if (run.error !== undefined) throw run.error;
      return { messages: core.store.getProjection().messages, model: core.model };
    },
    ...createToolCallHooks(core.bus),
    onEvent: (event) => handleLoopEvent(core, run, event),
  });
}

/**
 * Persists finished messages (before anyone is notified, so handlers see them in the store), keeps
 * pi's recovery bookkeeping, then delivers the event to extensions and listeners.
 */
async function handleLoopEvent(core: SessionCore, run: RunState, event: AgentEvent): Promise<void> {
  if (event.type === "message_end") {
    const message = event.message;
    const redact = core.options.redactText;
    if (redact !== undefined && message.role === "assistant" && message.errorMessage !== undefined) {
      message.errorMessage = redact(message.errorMessage);
    }
    persistMessage(core, message);
    // Acknowledged before anyone hears of it: durable in an asynchronous store (PostgreSQL) as a
    // JSONL append is when it returns (a no-op then).
    await core.store.flush();
    if (message.role === "user") {
      core.overflowRecoveryAttempted = false;
      run.inBoundaryContinuation = false;
    }
    if (message.role === "assistant" && message.stopReason !== "error" && message.stopReason !== "length") {
      core.overflowRecoveryAttempted = false;
      if (message.stopReason !== "aborted" && !run.inBoundaryContinuation) run.consecutiveAutoCompactions = 0;
    }
  }
  if (event.type === "turn_end") return turnEnd(core, run, event);
  await notify(core, event);
}

/** pi's `turn_end` boundary: drafts appended before the next turn; `continue` remembered for the loop. */
async function turnEnd(core: SessionCore, run: RunState, event: LoopTurnEndEvent): Promise<void> {
  const { type: _type, ...turn } = event;
  const boundary = await runBoundary<TurnEndEvent>(
    core,
    {
      type: "turn_end",
      ...turn,
      messageEntryId: core.entryIds.get(event.message) ?? "",
      toolResultEntryIds: event.toolResults.map((result) => core.entryIds.get(result) ?? ""),
    },
    outcomeOf(run, event.message.stopReason),
    run.signal,
  );
  if (boundary.continue && (await acceptContinuation(core, run, "turn_end", boundary.compacted))) {
    run.continueRequested = true;
  }
}
