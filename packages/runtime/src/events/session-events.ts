import type { AgentEvent } from "@arbor/agent-loop";
import type { HookError } from "@arbor/extensions";
import type { Model, Usage } from "@arbor/providers";
import type { BranchSummaryEntry, CompactionEntry } from "@arbor/session-store";
import type { RuntimeError } from "../runtime-error";
import type { AgentSettledEvent, TurnEndEvent } from "./boundary-events";

/**
 * Why a compaction runs:
 * - `manual`: `session.compact()`;
 * - `threshold`: the projected context crossed `contextWindow - reserveTokens` (checked between
 *   turns, after tool results, and before each new prompt);
 * - `overflow`: the provider rejected the context (or a response was cut by a recoverable `length`
 *   stop); with `willRetry` the failed attempt is omitted and the request is sent once more.
 */
export type CompactionReason = "manual" | "threshold" | "overflow";

/** What produced a compaction's summary. */
export type CompactionSummarizer = "model" | "offline" | "extension";

/** What a finished compaction wrote (pi's `CompactionResult`, plus the entry id and the summarizer). */
export interface SessionCompactionResult<TDetails = unknown> {
  /** Id of the `compaction` entry appended. */
  entryId: string;
  summary: string;
  /** First entry kept verbatim (the entry's own id for a retain-none compaction). */
  firstKeptEntryId: string;
  /** Context tokens before, as stored on the entry. */
  tokensBefore: number;
  /** Pure estimate of the projected context right after the compaction. */
  estimatedTokensAfter: number;
  usage?: Usage;
  details?: TDetails;
  /** Who wrote the summary: the model, the offline summarizer, or an extension. */
  summarizer: CompactionSummarizer;
}

/** A compaction begins (after a successful preparation; nothing is emitted when there is nothing to do). */
export interface CompactionStartEvent {
  type: "compaction_start";
  reason: CompactionReason;
  /** True when the failed request will be sent again after the compaction (overflow recovery). */
  willRetry: boolean;
}

/**
 * The LLM summary failed (or no summary provider is configured): the offline summarizer writes the
 * summary instead. Emitted for compactions and for branch summaries of a navigation.
 */
export interface CompactionFallbackEvent {
  type: "compaction_fallback";
  /** Which summary fell back. */
  operation: "compaction" | "branch_summary";
  /** The compaction's reason (`undefined` for a branch summary). */
  reason: CompactionReason | undefined;
  /** Why the model summary was not used (the failure's message, or `no summary provider`). */
  errorMessage: string;
  /** Stable code of the failure when it had one (for example a `CompactionError` code). */
  errorCode: string | undefined;
}

/** A compaction ended, successfully or not. */
export interface CompactionEndEvent {
  type: "compaction_end";
  reason: CompactionReason;
  /** Present on success. */
  result: SessionCompactionResult | undefined;
  /** True when aborted or cancelled by an extension. */
  aborted: boolean;
  /** True when the failed request is sent again next (success of an overflow recovery only). */
  willRetry: boolean;
  /** Present on failure (absent when aborted). */
  errorMessage?: string;
}

/** pi's `session_compact`: the compaction entry was appended. */
export interface SessionCompactEvent {
  type: "session_compact";
  compactionEntry: CompactionEntry;
  /** True when an extension supplied the compaction (stored with `fromHook: true`). */
  fromExtension: boolean;
  reason: CompactionReason;
  willRetry: boolean;
}

/** pi's `session_compact_failed`: nothing was appended (omission edits of an overflow attempt remain). */
export interface SessionCompactFailedEvent {
  type: "session_compact_failed";
  reason: CompactionReason;
  /** Absent when aborted. */
  errorMessage?: string;
  aborted: boolean;
  /**
   * Whether the aborted turn would have been retried after this compaction (an overflow or length
   * recovery); no retry happens, since the compaction failed. False for a manual or threshold
   * compaction and for a recovery that already used its one retry.
   */
  willRetry: boolean;
  fromExtension: boolean;
}

/** pi's `session_tree`: a navigation moved the leaf (and maybe wrote a branch summary). */
export interface SessionTreeEvent {
  type: "session_tree";
  newLeafId: string | null;
  oldLeafId: string | null;
  summaryEntry?: BranchSummaryEntry;
  /** Set when a summary was written: true when an extension supplied it. */
  fromExtension?: boolean;
}

/**
 * The session stopped a run (or refused to start one) on its own decision: the compaction loop
 * guard (`CONTEXT_STILL_TOO_LARGE`, `COMPACTION_LOOP_GUARD`) or a failed overflow recovery
 * (`OVERFLOW_RECOVERY_FAILED`). The same error is in the `PromptResult`.
 */
export interface SessionErrorEvent {
  type: "session_error";
  error: RuntimeError;
}

/** An extension handler threw, rejected or timed out; the session went on without its result. */
export interface HookErrorNotice {
  type: "hook_error";
  error: HookError;
  hookName: string;
  extensionId: string | undefined;
}

/**
 * pi's `model_select`: the active model changed (`session.setModel`); the `model_change` entry is
 * written. Arbor's only source is `"set"` (it has no model cycling and restores no model itself).
 */
export interface ModelSelectEvent {
  type: "model_select";
  model: Model;
  /** The model in use before the change. */
  previousModel: Model | undefined;
  source: "set" | "cycle" | "restore";
}

/**
 * pi's `session_info_changed`: the session's name was set (`session.setSessionName`, or an
 * extension's `api.session.setSessionName`) and the `session_info` entry is written.
 */
export interface SessionInfoChangedEvent {
  type: "session_info_changed";
  /** The name as stored: newlines collapsed to a space, trimmed; `undefined` when it was cleared. */
  name: string | undefined;
}

/** An extension called `api.ui.notify`: a one-line notice for the user. Listeners only. */
export interface ExtensionNoticeEvent {
  type: "extension_notice";
  /** The extension that sent it. */
  extensionId: string | undefined;
  /** The notice, as the extension gave it (a string; render it as untrusted text). */
  message: string;
  level: "info" | "warning" | "error";
}

/** Events the session itself emits (the loop's events are in {@link AgentSessionEvent} too). */
export type SessionNotification =
  | CompactionStartEvent
  | CompactionFallbackEvent
  | CompactionEndEvent
  | SessionCompactEvent
  | SessionCompactFailedEvent
  | SessionTreeEvent
  | SessionErrorEvent
  | HookErrorNotice
  | ModelSelectEvent
  | SessionInfoChangedEvent
  | ExtensionNoticeEvent
  | AgentSettledEvent;

/**
 * Every event `session.subscribe` delivers: the agent loop's events (see `AgentEvent` in
 * `@arbor/agent-loop`; `turn_end` carries the boundary state, see `TurnEndEvent`) and the session's
 * own, all with pi's snake_case names. Extensions
 * receive the same objects on the hook bus, before listeners do.
 */
export type AgentSessionEvent =
  | Exclude<AgentEvent, { type: "turn_end" }>
  | TurnEndEvent
  | SessionNotification;

/** The `type` of every {@link AgentSessionEvent}. */
export type AgentSessionEventType = AgentSessionEvent["type"];
