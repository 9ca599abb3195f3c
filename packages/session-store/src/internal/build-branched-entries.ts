import type { LabelEntry, SessionEntry } from "../session-entry";
import { type EntryIdSource, generateEntryId } from "./generate-entry-id";
import type { ResolvedLabel } from "./label-index";

/**
 * The entries of a session made from one path (fork / clone), following pi's
 * `createBranchedSession`:
 * - `label` entries on the path are dropped and the rest re-chained (each entry's parent is the
 *   previous kept one); a compaction whose `firstKeptEntryId` pointed at a dropped label now points
 *   at the next kept entry (a retain-none compaction keeps its own id);
 * - the resolved labels of entries on the path are appended at the end as new `label` entries,
 *   chained after the last entry, with their original label timestamps and fresh ids.
 *
 * Pure apart from id generation: entries are copied, never mutated.
 */
export function buildBranchedEntries(
  path: readonly SessionEntry[],
  labels: ReadonlyMap<string, ResolvedLabel>,
  idSource?: EntryIdSource,
): SessionEntry[] {
  const kept: SessionEntry[] = [];
  const replacementByLabelId = new Map<string, string>();
  const pendingLabelIds: string[] = [];
  let parentId: string | null = null;
  for (const entry of path) {
    if (entry.type === "label") {
      pendingLabelIds.push(entry.id);
      continue;
    }
    for (const labelId of pendingLabelIds) replacementByLabelId.set(labelId, entry.id);
    pendingLabelIds.length = 0;
    if (entry.type === "compaction") {
      const firstKeptEntryId =
        entry.firstKeptEntryId === entry.id
          ? entry.id
          : (replacementByLabelId.get(entry.firstKeptEntryId) ?? entry.firstKeptEntryId);
      kept.push({ ...entry, parentId, firstKeptEntryId });
    } else kept.push({ ...entry, parentId });
    parentId = entry.id;
  }
  const pathIds = new Set(kept.map((entry) => entry.id));
  const toWrite = [...labels].filter(([targetId]) => pathIds.has(targetId));
  const taken = new Set(pathIds);
  const labelEntries: LabelEntry[] = [];
  let labelParent: string | null = kept[kept.length - 1]?.id || null;
  for (const [targetId, { label, timestamp }] of toWrite) {
    const id = generateEntryId(taken, idSource);
    taken.add(id);
    labelEntries.push({ type: "label", id, parentId: labelParent, timestamp, targetId, label });
    labelParent = id;
  }
  return [...kept, ...labelEntries];
}
