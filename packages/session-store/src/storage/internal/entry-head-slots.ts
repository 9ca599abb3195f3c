/*
 * The layout of what `entryHeadProgram` writes for each line (see entry-head-program.ts), shared by the
 * program and `WasmEntryScanner` without loading the program at run time.
 */

/** The i32 words of one line's record, by index; `words` per record, `bytes` = 4 × `words`. */
export const ENTRY_LINE = {
  start: 0,
  newline: 1,
  end: 2,
  flags: 3,
  previousLine: 4,
  typeStart: 5,
  typeEnd: 6,
  idEnd: 7,
  hash: 8,
  parentStart: 9,
  parentEnd: 10,
  roleStart: 11,
  roleEnd: 12,
  words: 13,
  bytes: 52,
} as const;

/** Bits of a record's `flags`. */
export const ENTRY_LINE_FLAGS = {
  /** The line passed the head checks: the words from `typeStart` on are set. */
  matched: 1,
  /** The line holds a NUL byte (never valid JSON text: it was not checked). */
  nul: 2,
  /** The parent id has the bytes of the id of the line `previousLine` (a matched line). */
  samePrevious: 4,
} as const;

/** `parentStart` for `parentId: null`. */
export const ENTRY_LINE_PARENT_NULL = -1;
