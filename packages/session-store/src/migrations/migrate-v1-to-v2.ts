import { type EntryIdSource, generateEntryId } from "../internal/generate-entry-id";

type RawEntry = Record<string, unknown>;

/**
 * Migrates version-1 file entries to version 2 (returns new objects; the input is not mutated):
 * - the header gets `version: 2`;
 * - every other entry, in file order, gets a new 8-hex `id` and `parentId` = the previous entry's id
 *   (a linear chain; the first entry is a root);
 * - a `compaction` with a numeric `firstKeptEntryIndex` (an index into the whole array, header
 *   included) gets `firstKeptEntryId` = that entry's id, unless the index points at the header;
 *   `firstKeptEntryIndex` is removed. As in pi, an index pointing after the compaction yields the
 *   target's id as it was before migration (usually none).
 */
export function migrateV1ToV2(entries: readonly RawEntry[], idSource?: EntryIdSource): RawEntry[] {
  return assignVersion2Fields(
    entries.map((entry) => ({ ...entry })),
    idSource,
  );
}

/**
 * @internal {@link migrateV1ToV2} on entries the caller owns: each object is updated in place (and
 * returned in a new array) instead of copied first, which is most of the migration's cost when a
 * freshly parsed file is migrated at open. Mutates the entries.
 */
export function assignVersion2Fields(entries: readonly RawEntry[], idSource?: EntryIdSource): RawEntry[] {
  const taken = new Set<string>();
  const migrated: RawEntry[] = [];
  let previousId: string | null = null;
  for (const entry of entries) {
    if (entry.type === "session") {
      entry.version = 2;
      migrated.push(entry);
      continue;
    }
    const id = generateEntryId(taken, idSource);
    taken.add(id);
    const next = entry;
    next.id = id;
    next.parentId = previousId;
    previousId = id;
    if (next.type === "compaction" && typeof next.firstKeptEntryIndex === "number") {
      const targetIndex = next.firstKeptEntryIndex;
      // Entries before (and including) this one already carry their new ids.
      const target =
        targetIndex < migrated.length
          ? migrated[targetIndex]
          : targetIndex === migrated.length
            ? next
            : entries[targetIndex];
      if (target && target.type !== "session") next.firstKeptEntryId = target.id;
      delete next.firstKeptEntryIndex;
    }
    migrated.push(next);
  }
  return migrated;
}
