import type { StoredEntryRecord } from "../session-storage";
import { SessionStorageError } from "../session-storage-error";
import { recordFromEntry } from "./extract-entry-record";

/** One entry ready to be written: its JSON line (with the newline) and its record. */
export interface SerializedLine {
  line: Buffer;
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
): { header: { value: Record<string, unknown>; line: Buffer } | undefined; lines: SerializedLine[] } {
  let header: { value: Record<string, unknown>; line: Buffer } | undefined;
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
    header = { value: first, line: toLine(first, path, 0) };
    rest = entries.slice(1);
  }
  const lines = rest.map((entry, i) => {
    const record = recordFromEntry(entry);
    if (!record) {
      throw new SessionStorageError(
        "SESSION_ENTRY_INVALID",
        `Entry ${i} given to append for ${path} is not an object with a string \`type\`. Nothing was written.`,
        { path },
      );
    }
    return { line: toLine(entry, path, i, record.id), record };
  });
  return { header, lines };
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

function toLine(entry: Record<string, unknown>, path: string, index: number, id?: string): Buffer {
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
  return Buffer.from(`${json}\n`, "utf8");
}
