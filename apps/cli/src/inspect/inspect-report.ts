/**
 * The `arbor inspect --json` document: a stable machine interface (documented in the CLI README).
 * Every field is always present except `message`, which only `--full` adds.
 */
export interface InspectReport {
  /** The header's session id. */
  sessionId: string;
  /** The header's `version` exactly as written in the file (`null` when absent, meaning version 1). */
  version: number | null;
  /** The leaf inspected (`null` for an empty session). */
  leafId: string | null;
  /** Entry ids from the root to the leaf. */
  path: string[];
  context: {
    /** Usage-aware estimate of the context (pi's `estimateProjectedContextTokens`). */
    estimatedTokens: number;
    /** One element per projected message, in order. */
    messages: InspectContextMessage[];
  };
  /** What the next compaction would do; `null` when there is nothing to compact. */
  compaction: InspectCompaction | null;
  /** The compaction settings in effect for the session's model (added after the first release). */
  compactionSettings: InspectCompactionSettings;
  /**
   * The system prompt a run would send now (it is not stored in the session): its sections in
   * order, for the session's folder (the header's `cwd` when it exists, else the current folder),
   * with `inspect`'s `--system-prompt`, `--append-system-prompt` and `--no-context-files`.
   */
  systemPrompt: InspectSystemPrompt;
  /** How much of the file inspect checked (added in round 2 of the speed work; see the README). */
  validation: InspectValidation;
}

/**
 * The compaction settings `inspect` applied: those the agent would use for the session's model,
 * fitted to its context window like the runtime does (`--keep-recent-tokens` replaces
 * `keepRecentTokens`).
 */
export interface InspectCompactionSettings {
  keepRecentTokens: number;
  reserveTokens: number;
  /** The model's context window; `null` when the model is neither built in nor in the user's models file. */
  contextWindow: number | null;
  /** `contextWindow - reserveTokens`: automatic compaction triggers above it; `null` without a window. */
  threshold: number | null;
  /** The configured values when they did not fit the window and were scaled down; else `null`. */
  scaledFrom: { reserveTokens: number; keepRecentTokens: number; contextWindow: number } | null;
}

/** The system prompt part of the report. */
export interface InspectSystemPrompt {
  /** The folder whose context files were read. */
  cwd: string;
  /** chars/4 of the whole prompt. */
  estimatedTokens: number;
  /** `kind`: `base`, `custom`, `context-file`, `append` or `environment`; `source`: a path or a name. */
  sections: Array<{
    kind: string;
    source: string;
    estimatedTokens: number;
    bytes?: number;
    truncated?: boolean;
  }>;
}

/**
 * What `inspect` checked. It reads (and checks against the entry schemas) only what its report is
 * built from: the header, the path's context since the latest compaction, the entries the model and
 * thinking level come from (and, for the text form, labels and the session name). Every line's start
 * (type, id, parent) is read when the file is opened. `arbor check` checks every line.
 */
export interface InspectValidation {
  /** Lines parsed and checked in full: the header and the entries read. */
  linesValidated: number;
  /** The header and every entry line of the file. */
  linesInFile: number;
}

/** One model-visible message of the projection. */
export interface InspectContextMessage {
  /** The entry that produced the message (a compaction yields two messages with the same id). */
  entryId: string;
  /** pi's role name: `system`, `user`, `assistant`, `toolResult`, `bashExecution`, `custom`, `branchSummary`, `compactionSummary`. */
  role: string;
  /** chars/4 estimate of this message alone. */
  estimatedTokens: number;
  /** With `--full` only; see the README for its shape per entry type. */
  message?: unknown;
}

/** A message reference: the entry it comes from and its role. */
export interface InspectMessageRef {
  entryId: string;
  role: string;
}

/** The next compaction's cut, as `prepareCompaction` computes it. */
export interface InspectCompaction {
  firstKeptEntryId: string;
  isSplitTurn: boolean;
  /** The entry starting the split turn, `null` when the turn is not split. */
  turnStartEntryId: string | null;
  messagesToSummarize: InspectMessageRef[];
  turnPrefixMessages: InspectMessageRef[];
  hasPreviousSummary: boolean;
  tokensBefore: number;
  readFiles: string[];
  modifiedFiles: string[];
}
