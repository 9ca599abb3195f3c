import type { AgentMessage, TurnEndEvent as LoopTurnEndEvent } from "@arbor/agent-loop";
import type { ImageContent, TextContent, TranscriptMessage, Usage } from "@arbor/providers";
import type { ContextEditReplacement, ProjectedSessionEntry } from "@arbor/session-store";

/** How the activity before a boundary ended (pi's `AgentActivityOutcome`). */
export type AgentActivityOutcome = "completed" | "aborted" | "error";

/** A `custom` entry to append at a boundary (extension state; the model does not see it). */
export interface CustomEntryDraft {
  type: "custom";
  customType: string;
  data?: unknown;
}

/** A `custom_message` entry to append at a boundary (the model sees it as a `custom` message). */
export interface CustomMessageEntryDraft {
  type: "custom_message";
  customType: string;
  content: string | (TextContent | ImageContent)[];
  display: boolean;
  details?: unknown;
}

/** A `context_edit` entry to append at a boundary (replace a message's content, or hide it with `null`). */
export interface ContextEditEntryDraft {
  type: "context_edit";
  targetId: string;
  replacement: ContextEditReplacement | null;
}

/**
 * A `compaction` entry to append at a boundary. Stored with `fromHook: true` and a `tokensBefore`
 * the session computes (the projected context just before it); `null` keeps nothing (retain-none).
 */
export interface CompactionEntryDraft {
  type: "compaction";
  summary: string;
  firstKeptEntryId: string | null;
  details?: unknown;
  usage?: Usage;
}

/** An entry a boundary handler asks to append (pi's `SessionBoundaryDraft`). */
export type SessionBoundaryDraft =
  | CustomEntryDraft
  | CustomMessageEntryDraft
  | ContextEditEntryDraft
  | CompactionEntryDraft;

/**
 * What the next request would contain if the drafts so far were appended (pi's
 * `BoundaryContextPreview`): the projection's entries and messages, their conversion for the model
 * (`convertToLlm`, before the `context` hook and the system prompt), the steering and follow-up
 * messages waiting, and whether one more request can be made from it.
 */
export interface BoundaryContextPreview {
  contextEntries: ProjectedSessionEntry[];
  contextMessages: AgentMessage[];
  llmMessages: TranscriptMessage[];
  pendingMessages: AgentMessage[];
  /**
   * True when `continue` would be honoured: the activity completed (not aborted, no error), the
   * context has a message that is not a system message, and its last one is not an assistant
   * message unless messages are pending.
   */
  canContinue: boolean;
}

/** The state a boundary handler sees; each handler sees the drafts and `continue` of the ones before it. */
export interface BoundaryState {
  /** The drafts so far (earlier handlers' results), in append order. */
  entries: SessionBoundaryDraft[];
  /** Whether an earlier handler asked for one more request. */
  continue: boolean;
  /** The next request's context with `entries` applied. */
  context: BoundaryContextPreview;
  outcome: AgentActivityOutcome;
}

/**
 * Result of a boundary hook (`turn_end`, `agent_before_settle`). Returned fields replace the state's
 * (`entries` replaces the whole list: to add one, return `[...event.entries, draft]`). Each result is
 * checked by applying its drafts to a preview: a draft the session would refuse (a bad shape, a
 * context edit of an entry not on the branch, a compaction keeping an unknown entry) or a `continue`
 * the context cannot honour makes the whole result a `hook_error` (`HOOK_INVALID_RESULT`, naming the
 * extension) and nothing from it is used.
 */
export interface BoundaryResult {
  entries?: SessionBoundaryDraft[];
  continue?: boolean;
}

/**
 * pi's `turn_end`: the loop's turn ended (its assistant message and tool results are written).
 * A boundary: handlers may append entries and ask for one more request (`BoundaryResult`); the
 * drafts are appended, in order, before the next turn starts (and before the threshold check).
 * `continue` is honoured once: when the run would otherwise stop, one more request is made.
 */
export interface TurnEndEvent extends Omit<LoopTurnEndEvent, "type">, BoundaryState {
  type: "turn_end";
  /** Entry id of the turn's assistant message. */
  messageEntryId: string;
  /** Entry ids of the turn's tool results, in order. */
  toolResultEntryIds: string[];
}

/**
 * pi's `agent_before_settle`: a prompt is about to settle (after overflow or length recovery, the
 * threshold check and queued messages: its preview is the repaired projection). A boundary like
 * `turn_end`; `continue` starts one more run with the context as it is. Not fired for an aborted
 * prompt; fired with outcome `error` when the session stopped the prompt (loop guard, failed
 * recovery). Extensions only.
 */
export interface AgentBeforeSettleEvent extends BoundaryState {
  type: "agent_before_settle";
}

/** pi's `agent_settled`: the prompt has fully settled; nothing more runs for it. */
export interface AgentSettledEvent {
  type: "agent_settled";
  /** True when the prompt ended because it was aborted. */
  aborted: boolean;
}
