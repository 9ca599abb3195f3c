/**
 * A problem found in a session without stopping it from loading. The offending line or entry is
 * never removed from the file; a structurally invalid entry also stays in the tree.
 */
export interface SessionIssue {
  /**
   * - `SESSION_LINE_CORRUPT`: a line in the middle of the file is not JSON (skipped, kept in the file);
   * - `SESSION_TAIL_TORN`: the last line was cut short (copied to `quarantinePath` by the backend);
   * - `SESSION_ENTRY_INVALID`: an entry parses but a field its type needs is missing or of the wrong
   *   type (`"content": 123`, `"timestamp": 42`): it stays in the file and in the tree (its children
   *   stay linked through it) and is left out of branches and projections (no messages, no settings).
   */
  code: "SESSION_LINE_CORRUPT" | "SESSION_TAIL_TORN" | "SESSION_ENTRY_INVALID";
  /** What is wrong, naming the session file, line and entry id when known. */
  message: string;
  /** Session file path (`undefined` in memory). */
  sessionFile?: string;
  /** 1-based line, when known. */
  line?: number;
  /** Entry id, when known. */
  entryId?: string;
  /** Where a torn tail was copied. */
  quarantinePath?: string;
}
