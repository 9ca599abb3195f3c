import type { EntryIdSource } from "../internal/generate-entry-id";
import { CURRENT_SESSION_VERSION } from "../session-entry";
import { assignVersion2Fields, migrateV1ToV2 } from "./migrate-v1-to-v2";
import { migrateV2ToV3 } from "./migrate-v2-to-v3";

type RawEntry = Record<string, unknown>;

/** Result of {@link migrateSessionEntries}. */
export interface MigrateSessionEntriesResult {
  /** The entries at the current version (the input array itself when nothing had to change). */
  entries: RawEntry[];
  /** The version the entries had (a missing header or `version` means 1). */
  fromVersion: number;
  /** True when a migration ran. */
  migrated: boolean;
}

/** Reads the format version of file entries: the first header's `version`, else 1. */
export function readSessionVersion(entries: readonly RawEntry[]): number {
  const header = entries.find((entry) => entry.type === "session");
  const version = header?.version;
  return typeof version === "number" ? version : 1;
}

/**
 * Brings file entries (header included) to {@link CURRENT_SESSION_VERSION}: v1 → v2 → v3, in memory.
 * Pure: the input is never mutated. Files are never rewritten here; the store rewrites a migrated file
 * (keeping the original as a backup) on its first write.
 */
export function migrateSessionEntries(
  entries: readonly RawEntry[],
  options: { idSource?: EntryIdSource } = {},
): MigrateSessionEntriesResult {
  return migrateWith(entries, (list) => migrateV1ToV2(list, options.idSource));
}

/**
 * @internal {@link migrateSessionEntries} of entries the caller owns and uses no more (the entries of a
 * file parsed at open): version-1 entries are updated in place instead of copied. Mutates them.
 */
export function migrateOwnedSessionEntries(
  entries: readonly RawEntry[],
  options: { idSource?: EntryIdSource } = {},
): MigrateSessionEntriesResult {
  return migrateWith(entries, (list) => assignVersion2Fields(list, options.idSource));
}

function migrateWith(
  entries: readonly RawEntry[],
  toVersion2: (entries: readonly RawEntry[]) => RawEntry[],
): MigrateSessionEntriesResult {
  const fromVersion = readSessionVersion(entries);
  if (fromVersion >= CURRENT_SESSION_VERSION) return { entries: [...entries], fromVersion, migrated: false };
  let migrated = [...entries];
  if (fromVersion < 2) migrated = toVersion2(migrated);
  if (fromVersion < 3) migrated = migrateV2ToV3(migrated);
  return { entries: migrated, fromVersion, migrated: true };
}
