import type { CompactionEntry, SessionEntry } from "../session-entry";

/** Returns the last `compaction` entry of `entries` (usually a path), or `null`. Pure. */
export function getLatestCompactionEntry(entries: readonly SessionEntry[]): CompactionEntry | null {
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index];
    if (entry?.type === "compaction") return entry;
  }
  return null;
}
