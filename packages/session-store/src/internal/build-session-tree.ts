import type { SessionEntry } from "../session-entry";
import type { ResolvedLabel } from "./label-index";

/**
 * A node of {@link SessionView.getTreeShape}'s result: the place of one entry in the tree, without the
 * entry (read it with `getEntry(id)` when needed).
 */
export interface SessionTreeShapeNode {
  /** The entry's id. */
  id: string;
  /** Children sorted by entry timestamp, oldest first (stable for equal times), as in `getTree()`. */
  children: SessionTreeShapeNode[];
  /** The resolved label of this entry, if any. */
  label?: string;
  /** Timestamp of the label entry that set `label`. */
  labelTimestamp?: string;
}

/** A node of {@link buildSessionTree}'s result. */
export interface SessionTreeNode {
  entry: SessionEntry;
  /** Children sorted by entry timestamp, oldest first (stable for equal times). */
  children: SessionTreeNode[];
  /** The resolved label of this entry, if any. */
  label?: string;
  /** Timestamp of the label entry that set `label`. */
  labelTimestamp?: string;
}

/** What {@link arrangeForest} needs of each item (an entry, or an entry's light record). */
export interface ForestItem {
  id: string;
  parentId: string | null | undefined;
}

/**
 * Arranges items (file order) as a forest, one node per distinct id (`makeNode`; with duplicated ids
 * the last item's node stands for every copy, as pi's `getTree`). Roots are items whose `parentId` is
 * `null`, their own id, or an id no item has (orphans), in file order. Children are sorted by
 * `timeOf` (milliseconds), oldest first, stable; `timeOf` is asked only for nodes that have siblings.
 * Iterative: deep trees do not overflow the stack.
 *
 * A damaged file can make parent links circular (duplicated ids: the last entry with an id stands
 * for every copy, so a copy's parent link can point below it). Such a loop is cut where the walk
 * from the roots meets it again, and entries reachable only through a loop become extra roots (in
 * file order, after the others), so the result is always finite and holds every entry.
 */
export function arrangeForest<I extends ForestItem, N extends { children: N[] }>(
  items: readonly I[],
  makeNode: (item: I) => N,
  timeOf: (node: N) => number,
): N[] {
  const nodes = new Map<string, N>();
  for (const item of items) nodes.set(item.id, makeNode(item));
  const roots: N[] = [];
  for (const { id, parentId } of items) {
    const node = nodes.get(id) as N;
    const parent =
      parentId === null || parentId === undefined || parentId === id ? undefined : nodes.get(parentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  const state = new Map<N, "open" | "done">();
  for (const root of roots) sortSubtree(root, state, timeOf);
  for (const { id } of items) {
    const node = nodes.get(id) as N;
    if (state.has(node)) continue;
    roots.push(node);
    sortSubtree(node, state, timeOf);
  }
  return roots;
}

/**
 * Arranges entries (file order) as a forest (see {@link arrangeForest}), children sorted by their
 * entries' timestamps.
 */
export function buildSessionTree(
  entries: readonly SessionEntry[],
  labels: ReadonlyMap<string, ResolvedLabel>,
): SessionTreeNode[] {
  return arrangeForest(
    entries,
    (entry) => {
      const resolved = labels.get(entry.id);
      return {
        entry,
        children: [],
        ...(resolved ? { label: resolved.label, labelTimestamp: resolved.timestamp } : {}),
      } as SessionTreeNode;
    },
    (node) => new Date(node.entry.timestamp).getTime(),
  );
}

/** Sorts the children of every node under `root` (depth first), dropping links back to an open ancestor. */
function sortSubtree<N extends { children: N[] }>(
  root: N,
  state: Map<N, "open" | "done">,
  timeOf: (node: N) => number,
): void {
  if (state.has(root)) return;
  const path: { node: N; next: number }[] = [];
  const enter = (node: N) => {
    state.set(node, "open");
    if (node.children.length > 1) {
      // Each child's time once (reading it may read an entry), not once per comparison.
      const times = new Map(node.children.map((child) => [child, timeOf(child)]));
      node.children.sort((a, b) => (times.get(a) as number) - (times.get(b) as number));
    }
    path.push({ node, next: 0 });
  };
  enter(root);
  while (path.length > 0) {
    const top = path[path.length - 1] as { node: N; next: number };
    const child = top.node.children[top.next];
    if (child === undefined) {
      state.set(top.node, "done");
      path.pop();
    } else if (state.get(child) === "open") {
      top.node.children.splice(top.next, 1); // a loop back to an ancestor
    } else {
      top.next++;
      if (!state.has(child)) enter(child);
    }
  }
}
