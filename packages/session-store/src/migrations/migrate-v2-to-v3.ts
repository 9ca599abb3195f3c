type RawEntry = Record<string, unknown>;

/**
 * Migrates version-2 file entries to version 3 (returns new objects for changed entries; the input is
 * not mutated): the header gets `version: 3`, and a `message` whose role is `hookMessage` gets role
 * `custom`.
 */
export function migrateV2ToV3(entries: readonly RawEntry[]): RawEntry[] {
  return entries.map((entry) => {
    if (entry.type === "session") return { ...entry, version: 3 };
    const message = entry.message as { role?: unknown } | null | undefined;
    if (entry.type === "message" && message && message.role === "hookMessage") {
      return { ...entry, message: { ...message, role: "custom" } };
    }
    return entry;
  });
}
