import type { ExportEntry, ExportMessage } from "../export-data";

/** One entry of a leaf's context and what it contributes. */
export interface ProjectedItem {
  /** Index of the entry in `ExportData.entries`. */
  entry: number;
  /** What the model sees of it (empty for metadata, a hidden entry, or an older compaction). */
  messages: ExportMessage[];
  /** Index of the context edit applied to it, or -1. */
  edit: number;
}

/** What the model sees at one leaf, with the path it was built from. */
export interface LeafProjection {
  leaf: number;
  /** Entry indices from the root to the leaf. */
  path: number[];
  items: ProjectedItem[];
  /** Index of the compaction that draws the boundary (the latest on the path), or -1. */
  compaction: number;
  /** Path entries that compaction replaced (before its first kept entry, and system messages). */
  replaced: number[];
}

/**
 * The projection of `leaf`, computed in the page from the exported entries with the session store's
 * rules (`buildSessionProjection`): the path by parent links (a cycle stops the walk); with a
 * compaction on the path, the latest one, then the path entries from its first kept entry (system
 * messages left out), then everything after it; context edits among those entries, the latest per
 * target, replace or hide their target; an older compaction inside the kept range contributes
 * nothing. `leaf` -1 gives an empty projection. Pure; runs in the browser (no imports but types).
 */
export function projectLeaf(entries: readonly ExportEntry[], leaf: number): LeafProjection {
  const path: number[] = [];
  const seen = new Set<number>();
  for (let at = leaf; at >= 0 && !seen.has(at); at = entries[at]?.parent ?? -1) {
    seen.add(at);
    path.push(at);
  }
  path.reverse();
  let compactionPos = -1;
  for (let pos = 0; pos < path.length; pos++) {
    if (entries[path[pos] as number]?.type === "compaction") compactionPos = pos;
  }
  let context: number[] = path;
  const replaced: number[] = [];
  if (compactionPos >= 0) {
    const compaction = entries[path[compactionPos] as number] as ExportEntry;
    const firstKeptId = compaction.compaction?.firstKeptId;
    context = [path[compactionPos] as number];
    let kept = false;
    for (let pos = 0; pos < compactionPos; pos++) {
      const index = path[pos] as number;
      const entry = entries[index] as ExportEntry;
      if (entry.id === firstKeptId) kept = true;
      if (kept && entry.system !== true) context.push(index);
      else replaced.push(index);
    }
    for (let pos = compactionPos + 1; pos < path.length; pos++) context.push(path[pos] as number);
  }
  const edits = new Map<string, number>();
  for (const index of context) {
    const edit = entries[index]?.edit;
    if (entries[index]?.type === "context_edit" && edit) edits.set(edit.targetId, index);
  }
  const items: ProjectedItem[] = context.map((index, position) => {
    const entry = entries[index] as ExportEntry;
    if (entry.type === "compaction" && position > 0) return { entry: index, messages: [], edit: -1 };
    const edit = edits.get(entry.id) ?? -1;
    const editData = edit >= 0 ? entries[edit]?.edit : undefined;
    return { entry: index, messages: editData ? editData.messages : entry.messages, edit };
  });
  return {
    leaf,
    path,
    items,
    compaction: compactionPos >= 0 ? (path[compactionPos] as number) : -1,
    replaced,
  };
}
