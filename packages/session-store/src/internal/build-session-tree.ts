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
  const stack = [...roots];
  const time = (node: SessionTreeNode) => new Date(node.entry.timestamp).getTime();
  for (let node = stack.pop(); node; node = stack.pop()) {
    node.children.sort((a, b) => time(a) - time(b));
    for (const child of node.children) stack.push(child);
  }
  return roots;
}
