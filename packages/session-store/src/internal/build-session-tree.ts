import type { SessionEntry } from "../session-entry";
import type { ResolvedLabel } from "./label-index";

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

/**
 * Arranges entries (file order) as a forest. Roots are entries whose `parentId` is `null`, their own
 * id, or an id no entry has (orphans), in file order. Children are sorted by timestamp, oldest first.
 * Iterative: deep trees do not overflow the stack.
 *
 * A damaged file can make parent links circular (duplicated ids: the last entry with an id stands
 * for every copy, so a copy's parent link can point below it). Such a loop is cut where the walk
 * from the roots meets it again, and entries reachable only through a loop become extra roots (in
 * file order, after the others), so the result is always finite and holds every entry.
 */
export function buildSessionTree(
  entries: readonly SessionEntry[],
  labels: ReadonlyMap<string, ResolvedLabel>,
): SessionTreeNode[] {
  const nodes = new Map<string, SessionTreeNode>();
  for (const entry of entries) {
    const resolved = labels.get(entry.id);
    const node: SessionTreeNode = {
      entry,
      children: [],
      ...(resolved ? { label: resolved.label, labelTimestamp: resolved.timestamp } : {}),
    };
    nodes.set(entry.id, node);
  }
  const roots: SessionTreeNode[] = [];
  for (const { id, parentId } of entries) {
    // With duplicated ids the last entry's node stands for every copy (as pi's getTree).
    const node = nodes.get(id) as SessionTreeNode;
    const parent = parentId === null || parentId === id ? undefined : nodes.get(parentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  const state = new Map<SessionTreeNode, "open" | "done">();
  for (const root of roots) sortSubtree(root, state);
  for (const { id } of entries) {
    const node = nodes.get(id) as SessionTreeNode;
    if (state.has(node)) continue;
    roots.push(node);
    sortSubtree(node, state);
  }
  return roots;
}

/** Sorts the children of every node under `root` (depth first), dropping links back to an open ancestor. */
function sortSubtree(root: SessionTreeNode, state: Map<SessionTreeNode, "open" | "done">): void {
  if (state.has(root)) return;
  const time = (node: SessionTreeNode) => new Date(node.entry.timestamp).getTime();
  const path: { node: SessionTreeNode; next: number }[] = [];
  const enter = (node: SessionTreeNode) => {
    state.set(node, "open");
    node.children.sort((a, b) => time(a) - time(b));
    path.push({ node, next: 0 });
  };
  enter(root);
  while (path.length > 0) {
    const top = path[path.length - 1] as { node: SessionTreeNode; next: number };
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
