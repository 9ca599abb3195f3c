import type { StoredEntryRecord } from "../session-storage";
import { SessionStorageError } from "../session-storage-error";
import { recordFromEntry } from "./extract-entry-record";

/** One line ready to be written: its JSON text, without the newline. */
export interface SerializedText {
  json: string;
}

/** One entry ready to be written: its line and its record. */
export interface SerializedLine extends SerializedText {
  record: StoredEntryRecord;
}

/**
 * Serializes entries to JSONL lines, validating all of them before anything is written. When
 * `needsHeader` is true, `entries[0]` must be a header (`type: "session"`, string `id`) and is
 * returned separately. Throws `SESSION_ENTRY_INVALID` / `SESSION_HEADER_INVALID`; never mutates.
 */
export function serializeEntries(
  entries: readonly Record<string, unknown>[],
  needsHeader: boolean,
  path: string,
): { header: (SerializedText & { value: Record<string, unknown> }) | undefined; lines: SerializedLine[] } {
  let header: (SerializedText & { value: Record<string, unknown> }) | undefined;
  let rest = entries;
  if (needsHeader) {
    const first: Record<string, unknown> | undefined = entries[0];
    if (first === undefined || !isSessionHeader(first)) {
      throw new SessionStorageError(
        "SESSION_HEADER_INVALID",
        `${path} has no header yet: the first entry appended must be {"type":"session","id":...}, got ${describeFirst(first)}. Nothing was written.`,
        { path },
      );
    }
    header = { value: first, json: toJson(first, path, 0) };
    rest = entries.slice(1);
  }
  const lines: SerializedLine[] = [];
  for (let i = 0; i < rest.length; i++)
    lines.push(serializeEntry(rest[i] as Record<string, unknown>, path, i));
  return { header, lines };
}

/**
 * One entry of {@link serializeEntries} (`index`: its position among the entries, for messages).
 * Throws `SESSION_ENTRY_INVALID` as `serializeEntries` does; never mutates.
 */
export function serializeEntry(entry: Record<string, unknown>, path: string, index: number): SerializedLine {
  const record = recordFromEntry(entry);
  if (!record) {
    throw new SessionStorageError(
      "SESSION_ENTRY_INVALID",
      `Entry ${index} given to append for ${path} is not an object with a string \`type\`. Nothing was written.`,
      { path },
    );
  }
  return { json: toJson(entry, path, index, record.id), record };
}

function describeFirst(first: Record<string, unknown> | undefined): string {
  if (first === undefined) return "nothing";
  return first.type === "session"
    ? "a header without a string id"
    : `an entry of type ${JSON.stringify(first.type)}`;
}

/** Whether a value is a valid session header object. */
export function isSessionHeader(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<string, unknown>).type === "session" &&
    typeof (value as Record<string, unknown>).id === "string"
  );
}

/** The entry's JSON text (the writer adds the newline when it encodes the line). */
function toJson(entry: Record<string, unknown>, path: string, index: number, id?: string): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(entry);
  } catch (error) {
    throw new SessionStorageError(
      "SESSION_ENTRY_INVALID",
      `Entry ${id ?? index} for ${path} cannot be serialized to JSON (${error instanceof Error ? error.message : String(error)}). Nothing was written.`,
      { path, ...(id === undefined ? {} : { entryId: id }), cause: error },
    );
  }
  if (json === undefined) {
    // Only a `toJSON` returning undefined gets here; writing "undefined" would be a corrupt line.
    throw new SessionStorageError(
      "SESSION_ENTRY_INVALID",
      `Entry ${id ?? index} for ${path} serializes to nothing (its toJSON returned undefined). Nothing was written.`,
      { path, ...(id === undefined ? {} : { entryId: id }) },
    );
  }
  return json;
}
