/*
 * Where `entryHeadProgram` leaves what it found (see entry-head-program.ts), shared by the program and
 * `WasmEntryScanner` without loading the program at run time.
 */

/** The i32 slots the function writes, by index (byte offset / 4). */
export const HEAD_SLOTS = {
  typeStart: 0,
  typeEnd: 1,
  idEnd: 2,
  hash: 3,
  parentStart: 4,
  parentEnd: 5,
  roleStart: 6,
  roleEnd: 7,
} as const;

/** `parentStart` for `parentId: null`. */
export const HEAD_PARENT_NULL = -1;
/** `parentStart` when the parent id has the same bytes as the previous line's id. */
export const HEAD_PARENT_PREVIOUS = -2;
