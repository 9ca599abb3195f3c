import type { SessionTreeShapeNode } from "./build-session-tree";
import type { EntryTable } from "./entry-table";
import type { ResolvedLabel } from "./label-index";

const NONE = -1;

/**
 * The forest of `arrangeForest` over the table's visible entries (see `buildTreeShape`), built from
 * the table's parent indices instead of a `Map` of ids: children are linked through typed arrays in
 * file order, then one depth-first walk makes the nodes, ordering the children of a fork by their
 * entries' timestamps (oldest first, stable; the only entries read). Returns `undefined`, having built
 * nothing, when an entry has no id or shares its id with another entry (version-1 entries,
 * hand-edited files): `arrangeForest` decides those cases. Without shared ids every entry has at most
 * one parent, so a parent loop (a hand-edited file) is cut where the walk meets it again, and entries
 * reachable only through a loop become extra roots in file order, as in `arrangeForest`.
 * Throws what `EntryTable.entry` throws (a corrupt line found while reading a timestamp).
 */
export function arrangeTreeShape(
  table: EntryTable,
  labels: ReadonlyMap<string, ResolvedLabel>,
): SessionTreeShapeNode[] | undefined {
  const size = table.size;
  const firstChild = new Int32Array(size).fill(NONE);
  const lastChild = new Int32Array(size).fill(NONE);
  const nextSibling = new Int32Array(size).fill(NONE);
  const rootIndices: number[] = [];
  // Shared ids are found with a set of the ids seen: cheaper than a lookup per entry through the table.
  const seen = new Set<string>();
  for (let index = 0; index < size; index++) {
    if (table.isHidden(index)) continue;
    const id = table.idOf(index);
    if (id === undefined || seen.size === seen.add(id).size) return undefined;
    const parent = table.parentOf(index);
    if (parent < 0 || parent === index || table.isHidden(parent)) {
      rootIndices.push(index);
      continue;
    }
    if (firstChild[parent] === NONE) firstChild[parent] = index;
    else nextSibling[lastChild[parent] as number] = index;
    lastChild[parent] = index;
  }
  // 0: not reached, 1: on the walk's path (open), 2: done.
  const state = new Uint8Array(size);
  const nodeOf = (index: number): SessionTreeShapeNode => {
    const id = table.idOf(index) as string;
    const resolved = labels.get(id);
    return resolved
      ? { id, children: [], label: resolved.label, labelTimestamp: resolved.timestamp }
      : { id, children: [] };
  };
  const timeOf = (index: number): number => new Date(table.entry(index).timestamp).getTime();
  const roots: SessionTreeShapeNode[] = [];
  const walk = (root: number): void => {
    const rootNode = nodeOf(root);
    roots.push(rootNode);
    const path: { index: number; node: SessionTreeShapeNode; children: number[]; next: number }[] = [];
    const enter = (index: number, node: SessionTreeShapeNode): void => {
      state[index] = 1;
      const children: number[] = [];
      for (let child = firstChild[index] as number; child !== NONE; child = nextSibling[child] as number) {
        children.push(child);
      }
      if (children.length > 1) {
        // Each child's time once (reading it may read an entry), not once per comparison.
        const times = new Map(children.map((child) => [child, timeOf(child)]));
        children.sort((a, b) => (times.get(a) as number) - (times.get(b) as number));
      }
      path.push({ index, node, children, next: 0 });
    };
    enter(root, rootNode);
    while (path.length > 0) {
      const top = path[path.length - 1] as (typeof path)[number];
      if (top.next === top.children.length) {
        state[top.index] = 2;
        path.pop();
        continue;
      }
      const child = top.children[top.next++] as number;
      if (state[child] !== 0) continue; // a link back to an open ancestor: a loop, cut here
      const node = nodeOf(child);
      top.node.children.push(node);
      enter(child, node);
    }
  };
  for (const root of rootIndices) walk(root);
  for (let index = 0; index < size; index++) {
    if (state[index] === 0 && !table.isHidden(index)) walk(index);
  }
  return roots;
}
