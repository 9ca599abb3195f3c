import { ArborError, hasErrorMarker, setErrorMarker } from "@arbor/providers";

const MARKER = Symbol.for("arbor.error.compaction");

/**
 * Stable codes of {@link CompactionError}:
 * - `MISSING_FIRST_KEPT_ENTRY`: a preparation without `firstKeptEntryId` (old, unmigrated session).
 * - `SUMMARY_FAILED`: the model answered with an error (the provider's message is in the text and `cause`).
 * - `SUMMARY_TRUNCATED`: the model hit its output limit; the partial summary was discarded.
 * - `SUMMARY_TOOL_CALL`: the model tried to call a tool instead of writing the summary.
 * - `SUMMARY_EMPTY`: the model returned no text at all.
 * - `SUMMARY_ABORTED`: the caller's `AbortSignal` fired before the summary was complete.
 */
export type CompactionErrorCode =
  | "MISSING_FIRST_KEPT_ENTRY"
  | "SUMMARY_FAILED"
  | "SUMMARY_TRUNCATED"
  | "SUMMARY_TOOL_CALL"
  | "SUMMARY_EMPTY"
  | "SUMMARY_ABORTED";

/**
 * Thrown by compaction and summarization when no summary can be produced. Nothing is ever persisted
 * by this package, so a thrown `CompactionError` means the session is unchanged.
 */
export class CompactionError extends ArborError {
  override readonly code: CompactionErrorCode;
  /** Which request failed: the history summary, the split-turn prefix summary or a branch summary. */
  readonly stage: "history" | "turn-prefix" | "branch" | "prepare";

  constructor(
    code: CompactionErrorCode,
    message: string,
    options: { stage: CompactionError["stage"]; cause?: unknown },
  ) {
    super(code, message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "CompactionError";
    setErrorMarker(this, MARKER);
    this.code = code;
    this.stage = options.stage;
  }

  /**
   * True for a `CompactionError` only (not for other Arbor errors), whichever copy of the package created
   * the error: checks the global-symbol marker `Symbol.for("arbor.error.compaction")`, not the prototype chain.
   */
  static override isInstance(value: unknown): value is CompactionError {
    return hasErrorMarker(value, MARKER);
  }
}
