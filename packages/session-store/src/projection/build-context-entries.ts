import type { CompactionEntry, SessionEntry } from "../session-entry";
import { buildSessionPath } from "./build-session-path";

/** True for a `message` entry whose message has role `system`. */
export function isSystemMessageEntry(entry: SessionEntry): boolean {
  return entry.type === "message" && entry.message?.role === "system";
}

/**
 * Selects the entries that make up the context of a path: the `path` itself when it holds no
 * compaction, otherwise `[compaction, ...kept, ...after]` for the latest compaction on the path:
 * - `kept`: path entries before the compaction, from the first whose id is `firstKeptEntryId`, minus
 *   system-role messages (the compaction's `systemMessage` checkpoint stands in for them). Everything
 *   else is kept, including labels, edits and older compactions. Empty for a retain-none compaction
 *   or a `firstKeptEntryId` not found before the compaction.
 * - `after`: every path entry after the compaction, system messages included.
 *
 * Pure: never mutates.
 */
export function selectContextEntries(path: readonly SessionEntry[]): SessionEntry[] {
  let compaction: CompactionEntry | undefined;
  for (const entry of path) if (entry.type === "compaction") compaction = entry;
  if (!compaction) return [...path];
  const compactionId = compaction.id;
  const compactionIndex = path.findIndex((entry) => entry.id === compactionId);
  if (compactionIndex < 0) return [...path];
  const contextEntries: SessionEntry[] = [compaction];
  let foundFirstKept = false;
  for (let index = 0; index < compactionIndex; index++) {
    const entry = path[index] as SessionEntry;
    if (entry.id === compaction.firstKeptEntryId) foundFirstKept = true;
    if (foundFirstKept && !isSystemMessageEntry(entry)) contextEntries.push(entry);
  }
  for (let index = compactionIndex + 1; index < path.length; index++)
    contextEntries.push(path[index] as SessionEntry);
  return contextEntries;
}

/**
 * The compaction-aware context entries for a leaf: {@link buildSessionPath} then
 * {@link selectContextEntries}. Same arguments as `buildSessionPath`. Pure.
 */
export function buildContextEntries(
  entries: readonly SessionEntry[],
  leafId?: string | null,
  byId?: ReadonlyMap<string, SessionEntry>,
): SessionEntry[] {
  return selectContextEntries(buildSessionPath(entries, leafId, byId));
}
