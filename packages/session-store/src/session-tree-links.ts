/**
 * {@link SessionView.getTreeLinks}'s result: the forest of `getTreeShape()` as links between entry
 * numbers (an entry's place in file order, 0 for the first entry after the header, appended entries
 * after the loaded ones) instead of one object per entry, for walking a large session cheaply. The
 * arrays are indexed by entry number and sized to the session's entry count; an entry that is not in
 * the forest (a stray header line, a line found corrupt) has no links. Read-only: do not mutate.
 */
export interface SessionTreeLinks {
  /** The roots' entry numbers, in `getTreeShape()`'s order (file order). */
  readonly roots: readonly number[];
  /** Per entry: its first child's number (children ordered as in `getTreeShape()`), or -1. */
  readonly firstChild: Int32Array;
  /** Per entry: the number of its next sibling in that order, or -1 for the last child or a root. */
  readonly nextSibling: Int32Array;
  /** Per entry: its parent's number in the forest, or -1 for a root. */
  readonly parent: Int32Array;
  /** The current leaf's entry number; -1 for an empty leaf or a leaf that is not in the forest. */
  readonly leaf: number;
  /** The id of entry `entry` (a number of the forest). */
  id(entry: number): string;
  /** The label of entry `entry`, as `getTreeShape()`'s node has it (`undefined`: none). */
  label(entry: number): string | undefined;
  /**
   * The bytes of entry `entry`'s line, as `SessionView.getEntryLine` gives them for its id (nothing
   * parsed or checked; `undefined` when the line cannot be given that way); valid until the next read
   * from the store.
   */
  line(entry: number): Uint8Array | undefined;
}
