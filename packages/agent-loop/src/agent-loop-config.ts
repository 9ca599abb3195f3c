import type {
  AssistantMessage,
  Model,
  Provider,
  ProviderRequest,
  StopReason,
  StreamOptions,
  Tool,
  ToolResultMessage,
  TranscriptMessage,
} from "@arbor/providers";
import type { AgentEvent } from "./agent-event";
import type { AgentMessage } from "./agent-message";
import type { AgentTool, AgentToolResult, ToolExecutionMode } from "./agent-tool";

/** What `normalizeContext` receives: the converted messages and the configured prompt and tools. */
export interface NormalizeContextInput {
  /** Output of `convertToLlm`: provider messages plus transcript system messages. */
  messages: TranscriptMessage[];
  /** The prompt from the config's `systemPrompt`, if any. */
  systemPrompt: string | undefined;
  /** Declarations of the config's executable tools, in config order. */
  tools: Tool[];
  /** The model the request goes to. */
  model: Model;
}

/** What `normalizeContext` returns: the request minus the model. */
export type NormalizedContext = Omit<ProviderRequest, "model">;

/** What `prepareNextTurn` receives. */
export interface PrepareNextTurnContext {
  /** Index the next turn will have. */
  turnIndex: number;
  /** The current context (read-only view; return `messages` to replace it). */
  messages: readonly AgentMessage[];
  /** The assistant message of the turn that just ended. */
  lastMessage: AssistantMessage;
  /** The tool results of the turn that just ended. */
  toolResults: readonly ToolResultMessage[];
  /** The run's abort signal. */
  signal: AbortSignal;
}

/** Replacement state for the next turn. Every field is optional; omitted fields keep their value. */
export interface NextTurnUpdate {
  /** Replaces the whole context (for example with a freshly compacted projection). */
  messages?: AgentMessage[];
  /** Model for this and later requests. */
  model?: Model;
}

/** Options of {@link runAgentLoop}: the provider, the context, the tools, the seams and the hooks. */
export interface AgentLoopConfig {
  /** The model backend (the `Provider` interface from `@arbor/providers`). */
  provider: Provider;
  /** The model every request goes to (until `prepareNextTurn` changes it). */
  model: Model;
  /** The context so far, oldest first. Not mutated: the loop works on a copy. */
  messages: readonly AgentMessage[];
  /** New messages to append before the first request (usually the user's prompt). Default none. */
  prompts?: readonly AgentMessage[];
  /** Tools the model may call. Names must be unique. Default none. */
  tools?: readonly AgentTool[];
  /** Default scheduling for tools without their own `executionMode`. Default `"parallel"`. */
  toolExecution?: ToolExecutionMode;
  /**
   * System prompt sent besides any system messages in the transcript: a string, or a function
   * called before every request. The default `normalizeContext` puts it before the prompt replayed
   * from the transcript.
   *
   * Contract (function): may be async; a throw ends the turn with an error message, like a
   * failing seam.
   */
  systemPrompt?: string | (() => string | undefined | Promise<string | undefined>);
  /** Per-request options passed to `provider.stream` (the loop supplies `signal` itself). */
  streamOptions?: Omit<StreamOptions, "signal">;
  /** Aborts the run at any point (see the README's abort section). */
  signal?: AbortSignal;
  /**
   * Seam 1, before every request: rewrites the agent messages (prune, inject, project).
   * Default: identity.
   *
   * Contract: should not throw; a throw or rejection ends the turn with an assistant message whose
   * stop reason is `error` and whose `errorMessage` names the seam. Must not mutate its input
   * (return a new array). Receives the run's signal.
   */
  transformContext?: (
    messages: readonly AgentMessage[],
    signal: AbortSignal,
  ) => readonly AgentMessage[] | Promise<readonly AgentMessage[]>;
  /**
   * Seam 2: turns agent messages into provider messages plus system messages. Decides what custom
   * roles and summaries become. Default: `convertToLlm` from this package.
   *
   * Contract: as `transformContext` (should not throw; must not mutate its input).
   */
  convertToLlm?: (messages: readonly AgentMessage[]) => TranscriptMessage[] | Promise<TranscriptMessage[]>;
  /**
   * Seam 3: folds system messages, the configured prompt and the tools into a valid request.
   * Default: `normalizeContext` from this package.
   *
   * Contract: as `transformContext` (should not throw; must not mutate its input).
   */
  normalizeContext?: (input: NormalizeContextInput) => NormalizedContext | Promise<NormalizedContext>;
  /**
   * Messages the user typed while the agent works. Polled at the start of the run, after every turn
   * and after `prepareNextTurn`; returned messages start the next turn (the current turn's tool
   * calls still run). Return `[]` when there are none.
   *
   * Contract: should not throw (a throw ends the run with stop reason `error`). Each message must be
   * returned once: the loop appends whatever it gets.
   */
  getSteeringMessages?: () => readonly AgentMessage[] | Promise<readonly AgentMessage[]>;
  /**
   * Messages to handle once the agent would stop (no tool calls, no steering). Returned messages
   * start another turn. Same contract as `getSteeringMessages`.
   */
  getFollowUpMessages?: () => readonly AgentMessage[] | Promise<readonly AgentMessage[]>;
  /**
   * Called between turns, after `turn_end` and before the next `turn_start`, only when the run
   * continues. The runtime compacts here and replaces the context with the store's projection.
   * Return `undefined` to keep the state.
   *
   * Contract: may be async and slow (steering is polled again after it). A throw ends the run with
   * stop reason `error`. Should honour `context.signal`.
   */
  prepareNextTurn?: (
    context: PrepareNextTurnContext,
  ) => NextTurnUpdate | undefined | Promise<NextTurnUpdate | undefined>;
  /**
   * Called when the run would end after a completed turn (no tool calls, no steering, no follow-up).
   * Return `true` to make one more request with the context as it is (no new message; the next turn
   * runs `prepareNextTurn` first), as pi does for a boundary hook's `continue`. Not called after a
   * turn that ended with stop reason `error` or `aborted`, nor once the run is aborted. Default: never.
   *
   * Contract: may be async; a throw ends the run with stop reason `error`, like a failing poll.
   */
  requestContinuation?: () => boolean | Promise<boolean>;
  /**
   * Called before each tool call runs, after its arguments were validated (pi's `tool_call`). Return
   * `{ block: true, reason? }` to refuse it: the tool is not run and its result is an error with the
   * reason. `call.input` is the call's arguments: editing it in place changes what the tool receives.
   *
   * Contract: may be async; should honour `signal`. A throw is treated as a block with its message
   * (a failing guard must not let the call through).
   */
  beforeToolCall?: (
    call: ToolCallInfo,
    signal: AbortSignal,
  ) => ToolCallDecision | undefined | Promise<ToolCallDecision | undefined>;
  /**
   * Called after each tool call that ran (pi's `tool_result`), with its result. Return fields to
   * replace in the result (`content`, `details`, `isError`); `undefined` keeps it.
   *
   * Contract: may be async; should honour `signal`. A throw keeps the result as it is.
   */
  afterToolCall?: (
    result: ToolCallResultInfo,
    signal: AbortSignal,
  ) => ToolResultReplacement | undefined | Promise<ToolResultReplacement | undefined>;
  /**
   * Receives every event, in the order documented on `AgentEvent`. Awaited: the loop waits for it
   * before going on, so a handler can persist messages before the next step.
   *
   * Contract: must not throw. A throw aborts the run and `runAgentLoop` rejects with
   * `AGENT_LOOP_EVENT_HANDLER_FAILED`. Must not mutate events.
   */
  onEvent?: (event: AgentEvent) => void | Promise<void>;
}

/** A tool call about to run (see `beforeToolCall`). */
export interface ToolCallInfo {
  toolCallId: string;
  toolName: string;
  /** The call's arguments, validated; edit in place to change what the tool receives. */
  input: Record<string, unknown>;
}

/** What `beforeToolCall` may decide. */
export interface ToolCallDecision {
  /** Refuse the call: the tool does not run. */
  block?: boolean;
  /** Why, sent to the model as the error result. */
  reason?: string;
}

/** A tool call's result (see `afterToolCall`). */
export interface ToolCallResultInfo extends ToolCallInfo {
  content: AgentToolResult["content"];
  details: unknown;
  isError: boolean;
}

/** What `afterToolCall` may replace in a result. */
export interface ToolResultReplacement {
  content?: AgentToolResult["content"];
  details?: unknown;
  isError?: boolean;
}

/** What {@link runAgentLoop} resolves with. */
export interface AgentLoopResult {
  /** Every message the run appended, in order. Same list as `agent_end`'s `messages`. */
  messages: AgentMessage[];
  /** The final context: the input messages (or `prepareNextTurn`'s replacement) plus what was appended. */
  context: AgentMessage[];
  /** Same as `agent_end`'s `stopReason`. */
  stopReason: StopReason;
}
