import { arrangeTreeShape } from "./arrange-tree-shape";
import { arrangeForest, type SessionTreeShapeNode } from "./build-session-tree";
import type { EntryTable } from "./entry-table";
import type { ResolvedLabel } from "./label-index";

/**
 * The forest of `getTree()` from the table's light records: one {@link SessionTreeShapeNode} per
 * visible entry, labels resolved, children at forks ordered by their entries' timestamps (the only
 * entries read, besides the label entries the caller resolved). Throws what `EntryTable.entry` throws
 * (a corrupt line found while reading a timestamp).
 *
 * Built from the table's parent indices (`arrangeTreeShape`) unless ids repeat or are missing; then
 * by `arrangeForest`, which decides those cases as pi's `getTree` does.
 */
export function buildTreeShape(
  table: EntryTable,
  labels: ReadonlyMap<string, ResolvedLabel>,
): SessionTreeShapeNode[] {
  return arrangeTreeShape(table, labels) ?? arrangeShapeByForest(table, labels);
}

/**
 * The shape arranged by `arrangeForest` from a map of every id: the general way, for sessions with
 * repeated or missing ids (and the reference the index-based arrangement is tested against).
 */
export function arrangeShapeByForest(
  table: EntryTable,
  labels: ReadonlyMap<string, ResolvedLabel>,
): SessionTreeShapeNode[] {
  const items: { id: string; parentId: string | null | undefined; index: number }[] = [];
  for (let index = 0; index < table.size; index++) {
    if (table.isHidden(index)) continue;
    items.push({ id: table.idOf(index) as string, parentId: table.parentIdOf(index), index });
  }
  const indexOf = new Map<SessionTreeShapeNode, number>();
  return arrangeForest(
    items,
    (item) => {
      const resolved = labels.get(item.id);
      const node: SessionTreeShapeNode = {
        id: item.id,
        children: [],
        ...(resolved ? { label: resolved.label, labelTimestamp: resolved.timestamp } : {}),
      };
      indexOf.set(node, item.index);
      return node;
    },
    (node) => new Date(table.entry(indexOf.get(node) as number).timestamp).getTime(),
  );
}
