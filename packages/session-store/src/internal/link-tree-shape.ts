import type { EntryTable } from "./entry-table";

const NONE = -1;

/** The links of a forest (see `SessionTreeLinks`) without the accessors. */
export interface TreeShapeLinks {
  roots: number[];
  firstChild: Int32Array;
  nextSibling: Int32Array;
  parent: Int32Array;
}

/**
 * The forest of `arrangeTreeShape` over the table's visible entries as typed-array links, no node
 * objects: the same roots (file order) and the same children, ordered the same way (a fork's children
 * by their entries' timestamps, oldest first, stable), their timestamps read in the same order (depth
 * first, as the nodes are made). Returns `undefined`, having linked nothing, when an entry has no id
 * or shares its id with another entry, or when parent links loop (an entry not reachable from a
 * root): `buildTreeShape` decides those cases.
 * Throws what `EntryTable.entry` throws (a corrupt line found while reading a timestamp).
 */
export function linkTreeShape(table: EntryTable): TreeShapeLinks | undefined {
  const size = table.size;
  const firstChild = new Int32Array(size).fill(NONE);
  const lastChild = new Int32Array(size).fill(NONE);
  const nextSibling = new Int32Array(size).fill(NONE);
  const parent = new Int32Array(size).fill(NONE);
  const roots: number[] = [];
  // Shared ids are looked for only when the backend could not rule them out (a set of 100,000 ids
  // costs about a third of the links at that size).
  const seen = table.mayRepeatIds() ? new Set<string>() : undefined;
  let visible = 0;
  for (let index = 0; index < size; index++) {
    if (table.isHidden(index)) continue;
    visible++;
    if (seen === undefined) {
      if (!table.hasId(index)) return undefined; // asked without making 100,000 id strings
    } else {
      const id = table.idOf(index);
      if (id === undefined || seen.size === seen.add(id).size) return undefined;
    }
    const up = table.parentOf(index);
    if (up < 0 || up === index || table.isHidden(up)) {
      roots.push(index);
      continue;
    }
    parent[index] = up;
    if (firstChild[up] === NONE) firstChild[up] = index;
    else nextSibling[lastChild[up] as number] = index;
    lastChild[up] = index;
  }
  const timeOf = (index: number): number => new Date(table.entry(index).timestamp).getTime();
  // Depth first, each entry's children ordered when it is reached, as `arrangeTreeShape` does; a
  // chain of single children is followed without the stack.
  let reached = 0;
  const stack: number[] = [];
  const children: number[] = [];
  for (let root = roots.length - 1; root >= 0; root--) stack.push(roots[root] as number);
  while (stack.length > 0) {
    for (let index = stack.pop() as number; index !== NONE; ) {
      reached++;
      const first = firstChild[index] as number;
      if (first === NONE || nextSibling[first] === NONE) {
        index = first;
        continue;
      }
      children.length = 0;
      for (let child = first; child !== NONE; child = nextSibling[child] as number) children.push(child);
      sortByTime(children, timeOf);
      firstChild[index] = children[0] as number;
      for (let at = 0; at < children.length; at++) {
        nextSibling[children[at] as number] = (children[at + 1] as number | undefined) ?? NONE;
      }
      for (let at = children.length - 1; at > 0; at--) stack.push(children[at] as number);
      index = children[0] as number;
    }
  }
  return reached === visible ? { roots, firstChild, nextSibling, parent } : undefined;
}

/**
 * Orders `children` by `timeOf`, oldest first, stable, reading each child's time once (reading it may
 * read an entry), not once per comparison. A function of its own: the comparator's closure would
 * otherwise make the walk above allocate a scope object for every entry it passes, fork or not.
 */
function sortByTime(children: number[], timeOf: (index: number) => number): void {
  const times = new Map(children.map((child) => [child, timeOf(child)]));
  children.sort((a, b) => (times.get(a) as number) - (times.get(b) as number));
}
