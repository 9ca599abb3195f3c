import type { ExportEntry } from "../export-data";

/** The shape of a session tree, computed once: children in file order and subtree sizes. */
export interface TreeShape {
  roots: number[];
  children: number[][];
  /** Number of entries in each entry's subtree, itself included. */
  size: number[];
  /** Entries without children. */
  leaves: number[];
}

/** One visible row of the tree view. */
export interface TreeRow {
  entry: number;
  /** Indentation level: a chain of single children stays at one level; each fork adds one. */
  depth: number;
  /** True when the entry starts a branch (a child of a fork, or one of several roots): it can fold. */
  branchStart: boolean;
}

/**
 * The tree's shape from parent links. Iterative (any depth); an entry whose parent chain loops is
 * shown as a root. Pure.
 */
export function buildTreeShape(entries: readonly ExportEntry[]): TreeShape {
  const count = entries.length;
  const children: number[][] = Array.from({ length: count }, () => []);
  const roots: number[] = [];
  const parentOf = (index: number) => entries[index]?.parent ?? -1;
  // A parent link that closes a cycle would hide the cycle from any root: treat its entry as a root.
  const state = new Uint8Array(count); // 0 unvisited, 1 on the current walk, 2 done
  const isRoot = new Uint8Array(count);
  for (let start = 0; start < count; start++) {
    const walk: number[] = [];
    let at = start;
    while (at >= 0 && state[at] === 0) {
      state[at] = 1;
      walk.push(at);
      at = parentOf(at);
    }
    if (at >= 0 && state[at] === 1) isRoot[at] = 1;
    for (const index of walk) state[index] = 2;
  }
  for (let index = 0; index < count; index++) {
    const parent = parentOf(index);
    if (parent < 0 || isRoot[index] === 1) roots.push(index);
    else children[parent]?.push(index);
  }
  const size = new Array<number>(count).fill(1);
  const order: number[] = [];
  const stack = [...roots];
  while (stack.length > 0) {
    const index = stack.pop() as number;
    order.push(index);
    for (const child of children[index] as number[]) stack.push(child);
  }
  for (let pos = order.length - 1; pos >= 0; pos--) {
    const index = order[pos] as number;
    const parent = parentOf(index);
    if (parent >= 0 && isRoot[index] !== 1) size[parent] = (size[parent] as number) + (size[index] as number);
  }
  const leaves: number[] = [];
  for (let index = 0; index < count; index++) if (children[index]?.length === 0) leaves.push(index);
  return { roots, children, size, leaves };
}

/**
 * The visible rows, depth first with the oldest child first (as `arbor tree`); the subtree of a
 * folded branch start is left out (its row stays). Pure.
 */
export function visibleTreeRows(shape: TreeShape, folded: ReadonlySet<number>): TreeRow[] {
  const rows: TreeRow[] = [];
  const stack: TreeRow[] = [];
  const push = (list: readonly number[], depth: number) => {
    const fork = list.length > 1;
    for (let pos = list.length - 1; pos >= 0; pos--) {
      stack.push({ entry: list[pos] as number, depth: fork ? depth + 1 : depth, branchStart: fork });
    }
  };
  push(shape.roots, -1);
  if (shape.roots.length === 1) for (const row of stack) row.depth = 0;
  while (stack.length > 0) {
    const row = stack.pop() as TreeRow;
    rows.push(row);
    if (!(row.branchStart && folded.has(row.entry))) push(shape.children[row.entry] ?? [], row.depth);
  }
  return rows;
}
