import type { SessionEntry } from "../session-entry";

/** Builds an id → entry map; later duplicates win (as when loading a file). */
export function buildEntryIndex(entries: readonly SessionEntry[]): Map<string, SessionEntry> {
  const index = new Map<string, SessionEntry>();
  for (const entry of entries) index.set(entry.id, entry);
  return index;
}

/**
 * Returns the path from the root to a leaf, root first.
 *
 * - `leafId === null` gives `[]` (an empty leaf).
 * - An `undefined` or unknown `leafId` means the last element of `entries`.
 * - The walk follows `parentId` and stops at a missing (or empty) parent, or at an entry already
 *   visited (a cycle in a hand-edited file; pi would loop forever there).
 *
 * Pure: never mutates. `byId` may be passed to avoid rebuilding the index (it must index `entries`).
 */
export function buildSessionPath(
  entries: readonly SessionEntry[],
  leafId?: string | null,
  byId?: ReadonlyMap<string, SessionEntry>,
): SessionEntry[] {
  if (leafId === null) return [];
  const index = byId ?? buildEntryIndex(entries);
  let current: SessionEntry | undefined = leafId ? index.get(leafId) : undefined;
  current ??= entries[entries.length - 1];
  const path: SessionEntry[] = [];
  const visited = new Set<SessionEntry>();
  while (current && !visited.has(current)) {
    visited.add(current);
    path.push(current);
    current = current.parentId ? index.get(current.parentId) : undefined;
  }
  return path.reverse();
}
