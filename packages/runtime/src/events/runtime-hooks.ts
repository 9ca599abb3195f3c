import type { AgentLoopEvents, AgentMessage } from "@arbor/agent-loop";
import type { CompactionPreparation } from "@arbor/compaction";
import type { ImageContent, ProviderRequest, StreamOptions, TextContent, Usage } from "@arbor/providers";
import type { SessionEntry } from "@arbor/session-store";
import type { AgentBeforeSettleEvent, BoundaryResult, TurnEndEvent } from "./boundary-events";
import type { SessionLifecycleHooks } from "./lifecycle-events";
import type {
  CompactionReason,
  ExtensionNoticeEvent,
  HookErrorNotice,
  SessionNotification,
} from "./session-events";

/** A compaction an extension writes instead of the default summary (pi's `CompactionResult`). */
export interface CustomCompaction<TDetails = unknown> {
  summary: string;
  /** First entry kept verbatim; `null` (or empty) keeps nothing (a retain-none compaction). */
  firstKeptEntryId: string | null;
  /** Stored as given (pi does not recompute it). Usually `preparation.tokensBefore`. */
  tokensBefore: number;
  details?: TDetails;
  /** Usage of the extension's own model call, counted in the session's totals. */
  usage?: Usage;
}

/** pi's `session_before_compact`: fired after a successful preparation, before any summary is made. */
export interface SessionBeforeCompactEvent {
  type: "session_before_compact";
  preparation: CompactionPreparation;
  /** The whole root→leaf branch (not only the projected part). */
  branchEntries: SessionEntry[];
  /** Focus passed to `session.compact(instructions)`; undefined for automatic compactions. */
  customInstructions: string | undefined;
  reason: CompactionReason;
  willRetry: boolean;
  /** Aborted when the compaction is aborted (`session.abort()`). */
  signal: AbortSignal;
}

/**
 * Result of `session_before_compact`. Merge rule (the bus's): `{ cancel: true }` stops the chain and
 * cancels the compaction; otherwise the last handler that returned a value wins, whole.
 */
export interface SessionBeforeCompactResult {
  cancel?: boolean;
  /** Used instead of the default summary; stored with `fromHook: true`. */
  compaction?: CustomCompaction;
}

/**
 * pi's `session_before_fork`: `session.fork()` validated its arguments and is about to create the new
 * session. Nothing is written yet. The handler's `context.signal` aborts on its timeout or when
 * `session.abort()` is called.
 */
export interface SessionBeforeForkEvent {
  type: "session_before_fork";
  /** The entry forked from (the current leaf when `fork()` was called without `entryId`). */
  entryId: string;
  /** The resolved position: `"before"` a user message, or `"at"` the entry. */
  position: "before" | "at";
}

/**
 * Result of `session_before_fork`. `{ cancel: true }` stops the chain and the fork: `fork()` rejects
 * with `RuntimeError` `FORK_CANCELLED`, no file is created and this session is unchanged. Otherwise the
 * last handler that returned a value wins.
 */
export interface SessionBeforeForkResult {
  cancel?: boolean;
  /**
   * Accepted for pi compatibility, no effect: Arbor's `fork()` returns a new session and leaves this
   * one as it is, so there is no conversation to restore (the caller decides what to show).
   */
  skipConversationRestore?: boolean;
}

/** What a navigation is about to do (pi's `TreePreparation`). */
export interface TreePreparation {
  targetId: string;
  oldLeafId: string | null;
  commonAncestorId: string | null;
  /** Entries of the branch being left, oldest first (from just after the common ancestor). */
  entriesToSummarize: SessionEntry[];
  userWantsSummary: boolean;
  customInstructions: string | undefined;
  replaceInstructions: boolean | undefined;
  label: string | undefined;
}

/** pi's `session_before_tree`. */
export interface SessionBeforeTreeEvent {
  type: "session_before_tree";
  preparation: TreePreparation;
  signal: AbortSignal;
}

/**
 * Result of `session_before_tree`: `cancel` stops the navigation; `summary` replaces the default
 * branch summary (used only when the caller asked for a summary); the other fields, when not
 * undefined, override the caller's options. Last handler that returned a value wins, whole.
 */
export interface SessionBeforeTreeResult {
  cancel?: boolean;
  summary?: { summary: string; details?: unknown; usage?: Usage };
  customInstructions?: string;
  replaceInstructions?: boolean;
  label?: string;
}

/**
 * pi's `context`: the messages of the next request, without system messages (a deep copy). Return
 * `{ messages }` to replace them, or edit `event.messages` in place. When the list changed, the
 * request gets one system message replayed from the original ones at its head.
 */
export interface ContextEvent {
  type: "context";
  messages: AgentMessage[];
}

/** Result of `context`. */
export interface ContextResult {
  messages?: AgentMessage[];
}

/** pi's `before_provider_request`: the exact request about to go to the provider. */
export interface BeforeProviderRequestEvent {
  type: "before_provider_request";
  request: ProviderRequest;
  /** The stream options (without the signal). */
  options: Omit<StreamOptions, "signal">;
}

/** Result of `before_provider_request`: a replacement request (the model may not change). */
export interface BeforeProviderRequestResult {
  request?: ProviderRequest;
}

/**
 * pi's `tool_call`: a tool call is about to run (its arguments validated). Return `{ block: true,
 * reason }` to refuse it (the tool does not run; the model gets the reason as an error result); a
 * `{ block: true }` stops the chain. Edit `input` in place to change the arguments the tool gets.
 * A handler that throws or times out does not block (it is a `hook_error`).
 */
export interface ToolCallEvent {
  type: "tool_call";
  toolCallId: string;
  toolName: string;
  /** The call's arguments; editing them in place changes what the tool receives. */
  input: Record<string, unknown>;
}

/** Result of `tool_call`. */
export interface ToolCallResult {
  block?: boolean;
  reason?: string;
}

/** pi's `tool_result`: a tool call finished. Return fields to replace in its result; the last handler that returned one wins. */
export interface ToolResultEvent {
  type: "tool_result";
  toolCallId: string;
  toolName: string;
  input: Record<string, unknown>;
  content: Array<TextContent | ImageContent>;
  details: unknown;
  isError: boolean;
}

/** Result of `tool_result`: replacements for the tool's result (what the model and the session file get). */
export interface ToolResultResult {
  content?: Array<TextContent | ImageContent>;
  details?: unknown;
  isError?: boolean;
}

/** The session's interceptors (handlers may return a result). */
export interface RuntimeInterceptors {
  session_before_compact: { event: SessionBeforeCompactEvent; result: SessionBeforeCompactResult };
  session_before_tree: { event: SessionBeforeTreeEvent; result: SessionBeforeTreeResult };
  session_before_fork: { event: SessionBeforeForkEvent; result: SessionBeforeForkResult };
  context: { event: ContextEvent; result: ContextResult };
  before_provider_request: { event: BeforeProviderRequestEvent; result: BeforeProviderRequestResult };
  /** A boundary: see {@link TurnEndEvent}. Results chain (see {@link BoundaryResult}). */
  turn_end: { event: TurnEndEvent; result: BoundaryResult };
  /** A boundary: see {@link AgentBeforeSettleEvent}. */
  agent_before_settle: { event: AgentBeforeSettleEvent; result: BoundaryResult };
  tool_call: { event: ToolCallEvent; result: ToolCallResult };
  tool_result: { event: ToolResultEvent; result: ToolResultResult };
}

/**
 * The session's notifications as a hook map. The session's `hook_error` notice is for listeners;
 * extensions subscribe to the bus's built-in `hook_error` of the same name (`HookErrorEvent`: the same
 * fields without `type`), whose failing handlers are not reported to themselves. `extension_notice`
 * is for listeners only (a notice is for the user, not for other extensions).
 */
export type SessionNotificationHooks = {
  [E in Exclude<SessionNotification, HookErrorNotice | ExtensionNoticeEvent> as E["type"]]: {
    event: E;
    result: undefined;
  };
};

/**
 * Everything an extension can subscribe to (pi's names, snake_case; `RUNTIME_HOOK_NAMES` lists them):
 * the loop's events (`turn_end`, `message_end`, …), the
 * session's notifications (`session_compact`, `compaction_end`, …), its lifecycle (`session_start`,
 * `session_shutdown`) and its interceptors (`session_before_compact`, `context`, …). Used as
 * `createHookBus<RuntimeHooks>()`.
 */
export type RuntimeHooks = Omit<AgentLoopEvents, "turn_end"> &
  SessionNotificationHooks &
  SessionLifecycleHooks &
  RuntimeInterceptors;
