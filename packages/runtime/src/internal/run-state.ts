import type { RuntimeError } from "../runtime-error";

/** Default of `compaction.maxConsecutiveAutoCompactions`. */
export const DEFAULT_MAX_CONSECUTIVE_AUTO_COMPACTIONS = 3;

/** State of one `prompt()` call, across its loop runs (the first one and a retry). */
export interface RunState {
  /** Aborts the whole prompt (the loop, compactions, summaries). */
  readonly signal: AbortSignal;
  /** Automatic compactions since the last successful response (reset by a `stop`/`toolUse` response). */
  consecutiveAutoCompactions: number;
  /** Cap of `consecutiveAutoCompactions` (loop guard). */
  readonly maxConsecutiveAutoCompactions: number;
  /** Set after a failed automatic compaction: no further automatic compaction in this prompt. */
  autoCompactionSuppressed: boolean;
  /** The session's own reason for stopping this prompt (loop guard, failed recovery). */
  error: RuntimeError | undefined;
  /** A `turn_end` handler asked for one more request (consumed when the loop would stop). */
  continueRequested: boolean;
  /** Requests made because a boundary asked for them, in this prompt (bounded). */
  boundaryContinuations: number;
  /**
   * True from a boundary continuation until the next user message: responses in between do not
   * reset `consecutiveAutoCompactions`, so boundary compactions that keep asking for one more
   * request stay bounded by the loop guard.
   */
  inBoundaryContinuation: boolean;
}

/** Most requests boundaries may add to one prompt (`continue: true`); then the prompt stops. */
export const MAX_BOUNDARY_CONTINUATIONS = 16;

/** Creates the state of a prompt. */
export function createRunState(signal: AbortSignal, maxConsecutiveAutoCompactions?: number): RunState {
  return {
    signal,
    consecutiveAutoCompactions: 0,
    maxConsecutiveAutoCompactions: maxConsecutiveAutoCompactions ?? DEFAULT_MAX_CONSECUTIVE_AUTO_COMPACTIONS,
    autoCompactionSuppressed: false,
    error: undefined,
    continueRequested: false,
    boundaryContinuations: 0,
    inBoundaryContinuation: false,
  };
}
