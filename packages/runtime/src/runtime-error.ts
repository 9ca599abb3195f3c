import { ArborError, hasErrorMarker, setErrorMarker } from "@arbor/providers";

const MARKER = Symbol.for("arbor.error.runtime");

/**
 * Stable codes of {@link RuntimeError}:
 * - `SESSION_BUSY`: the operation cannot start now: `prompt()` while a run is in progress, or a
 *   session method called from inside an operation that holds the session (an extension handler
 *   awaiting `session.compact()` during a compaction would otherwise deadlock).
 * - `SESSION_DISPOSED`: the session was disposed.
 * - `CONTEXT_STILL_TOO_LARGE`: a compaction finished but the projected context is still above the
 *   threshold (the kept part alone is too big); automatic compaction stops instead of looping.
 *   Carries `tokens`, `threshold` and `contextWindow`.
 * - `COMPACTION_LOOP_GUARD`: automatic compactions happened back to back without a successful
 *   response in between (`maxConsecutiveAutoCompactions`); the run stops.
 * - `OVERFLOW_RECOVERY_FAILED`: a context overflow or truncated response came back after one
 *   compact-and-retry attempt (the provider's real limit may be lower than the model catalog says).
 * - `NOTHING_TO_COMPACT` / `ALREADY_COMPACTED`: manual compaction had nothing to do.
 * - `COMPACTION_CANCELLED`: an extension cancelled the compaction, or it was aborted.
 * - `COMPACTION_FAILED`: the summary could not be produced (and no fallback applied).
 * - `ENTRY_NOT_FOUND`: a navigation or fork target id is not in the session.
 * - `BRANCH_SUMMARY_FAILED`: the branch summary for a navigation could not be produced.
 * - `FORK_CANCELLED`: a `session_before_fork` handler cancelled the fork, or `abort()` stopped it
 *   while the handlers ran; nothing was created. Carries `entryId`.
 * - `CONTINUATION_LIMIT`: boundary hooks (`turn_end`, `agent_before_settle`) asked for more extra
 *   requests in one prompt than the session allows (`MAX_BOUNDARY_CONTINUATIONS`); the prompt stops.
 * - `INVALID_ARGUMENT`: a caller passed a value the runtime cannot use (named in the message).
 * - `MODEL_UNAVAILABLE`: `api.models.providerFor(model)` cannot serve the model (no key configured,
 *   or no provider for its API); the message names the model and what is missing.
 */
export type RuntimeErrorCode =
  | "SESSION_BUSY"
  | "SESSION_DISPOSED"
  | "CONTEXT_STILL_TOO_LARGE"
  | "COMPACTION_LOOP_GUARD"
  | "OVERFLOW_RECOVERY_FAILED"
  | "NOTHING_TO_COMPACT"
  | "ALREADY_COMPACTED"
  | "COMPACTION_CANCELLED"
  | "COMPACTION_FAILED"
  | "ENTRY_NOT_FOUND"
  | "BRANCH_SUMMARY_FAILED"
  | "FORK_CANCELLED"
  | "CONTINUATION_LIMIT"
  | "INVALID_ARGUMENT"
  | "MODEL_UNAVAILABLE";

/** Structured fields some {@link RuntimeError} codes carry. */
export interface RuntimeErrorDetails {
  /** Projected context tokens at the time of the error (`CONTEXT_STILL_TOO_LARGE`). */
  tokens?: number;
  /** `contextWindow - reserveTokens` (`CONTEXT_STILL_TOO_LARGE`). */
  threshold?: number;
  /** The model's context window (`CONTEXT_STILL_TOO_LARGE`). */
  contextWindow?: number;
  /** Entry id involved (`ENTRY_NOT_FOUND`, `FORK_CANCELLED`). */
  entryId?: string;
  /** What caused this error, when it wraps another failure. */
  cause?: unknown;
}

/**
 * An error raised by the agent session. Model failures are not thrown: they end a run with an
 * assistant message whose `stopReason` is `error`. These errors cover the session's own decisions
 * (the compaction loop guard, failed recovery) and invalid calls.
 */
export class RuntimeError extends ArborError {
  override readonly code: RuntimeErrorCode;
  /** See {@link RuntimeErrorDetails}. */
  readonly tokens: number | undefined;
  /** See {@link RuntimeErrorDetails}. */
  readonly threshold: number | undefined;
  /** See {@link RuntimeErrorDetails}. */
  readonly contextWindow: number | undefined;
  /** See {@link RuntimeErrorDetails}. */
  readonly entryId: string | undefined;

  constructor(code: RuntimeErrorCode, message: string, details: RuntimeErrorDetails = {}) {
    super(code, message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "RuntimeError";
    setErrorMarker(this, MARKER);
    this.code = code;
    this.tokens = details.tokens;
    this.threshold = details.threshold;
    this.contextWindow = details.contextWindow;
    this.entryId = details.entryId;
  }

  /**
   * True for a `RuntimeError` only (not for other Arbor errors), whichever copy of the package created
   * the error: checks the global-symbol marker `Symbol.for("arbor.error.runtime")`, not the prototype chain.
   */
  static override isInstance(value: unknown): value is RuntimeError {
    return hasErrorMarker(value, MARKER);
  }
}
