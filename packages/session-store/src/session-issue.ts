/**
 * A problem found in a session without stopping it from loading. The offending line or entry is
 * never removed: it stays in the file and (for a structurally invalid entry) in the tree.
 */
export interface SessionIssue {
  /**
   * - `SESSION_LINE_CORRUPT`: a line in the middle of the file is not JSON (skipped, kept in the file);
   * - `SESSION_TAIL_TORN`: the last line was cut short (copied to `quarantinePath` by the backend);
   * - `SESSION_ENTRY_INVALID`: an entry parses but lacks fields its type needs (kept in the tree; the
   *   projection treats what it cannot read as contributing nothing).
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
