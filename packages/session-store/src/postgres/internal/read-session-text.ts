import type { Client } from "pg";
import { readFailed } from "./pg-connect";
import type { LineRow } from "./pg-line-writer";

/** A session's rows as read back, in file order. */
export interface SessionRows<Row extends { kind: LineRow["kind"] } = LineRow> {
  rows: Row[];
  endsWithNewline: boolean;
  /** The header's `version` as recorded at import or first write (`null` when it had none). */
  version: number | null;
}

/** A row's light record, with its line only when it was read (the header's always is). */
export type RecordRow = Omit<LineRow, "line"> & { line: string | undefined };

/**
 * Every line of a session with its light record, in file order, with one query; `undefined` when
 * there is no session row or no line (a writer that never wrote).
 */
export async function readSessionRows(
  client: Client,
  schema: { sql: string },
  sessionId: string,
  location: string,
): Promise<SessionRows | undefined> {
  return (await queryRows(client, schema, sessionId, location, true)) as SessionRows | undefined;
}

/** Sessions of at most this many lines are read whole by {@link readSessionRecords}. */
export const WHOLE_SESSION_LINES = 2000;

/**
 * The threshold in force (tests set `wholeSessionLines` to 0 so that even the small fixtures go
 * through the light-record open). Not part of the public API.
 */
export const readTuning = { wholeSessionLines: WHOLE_SESSION_LINES };

/**
 * The light records of every line of a session (seq, kind, entry id, parent id, type, role), in file
 * order, with one query that carries the text of the header line only (every line's text for a
 * session of at most `readTuning.wholeSessionLines` lines); `undefined` as {@link readSessionRows}.
 */
export async function readSessionRecords(
  client: Client,
  schema: { sql: string },
  sessionId: string,
  location: string,
): Promise<SessionRows<RecordRow> | undefined> {
  return queryRows(client, schema, sessionId, location, false);
}

async function queryRows(
  client: Client,
  schema: { sql: string },
  sessionId: string,
  location: string,
  withLines: boolean,
): Promise<SessionRows<RecordRow> | undefined> {
  // A small session comes whole: fetching its lines afterwards would cost a round trip for nothing.
  const line = withLines
    ? "line"
    : `CASE WHEN kind = 'header' OR (SELECT line_count FROM ${schema.sql}.sessions WHERE id = $1) <= ${Math.trunc(readTuning.wholeSessionLines)} THEN line END AS line`;
  try {
    const [session, lines] = await Promise.all([
      client.query<{ ends: boolean; version: number | null }>(
        `SELECT ends_with_newline AS ends, version FROM ${schema.sql}.sessions WHERE id = $1`,
        [sessionId],
      ),
      // Arrays, not objects: 100,000 rows parse faster without a key per field.
      client.query<
        [number, LineRow["kind"], string | null, string | null, string | null, string | null, string | null]
      >({
        text: `SELECT seq, kind, entry_id, parent_id, type, role, ${line} FROM ${schema.sql}.session_lines WHERE session_id = $1 ORDER BY seq`,
        values: [sessionId],
        rowMode: "array",
      }),
    ]);
    const row = session.rows[0];
    if (row === undefined || lines.rows.length === 0) return undefined;
    return {
      rows: lines.rows.map(([seq, kind, entryId, parentId, type, role, text]) => ({
        seq,
        kind,
        entryId,
        parentId,
        type,
        role,
        line: text ?? undefined,
      })),
      endsWithNewline: row.ends,
      version: row.version,
    };
  } catch (error) {
    throw readFailed(location, error);
  }
}

/** The exact session text of `rows`. */
export function sessionTextOf(rows: SessionRows): string {
  const text = rows.rows.map((row) => row.line).join("\n");
  return rows.endsWithNewline ? `${text}\n` : text;
}

/**
 * Whether the store can be built from the rows' records without scanning the text: a version-3
 * session whose first line is the header and every other line an entry (no blank, corrupt or torn
 * line, which only the scanner reports the way the file backend does).
 */
export function rowsAreClean(rows: SessionRows<{ kind: LineRow["kind"] }>): boolean {
  if (!rows.endsWithNewline || rows.version === null || rows.version < 3) return false;
  if (rows.rows[0]?.kind !== "header") return false;
  for (let i = 1; i < rows.rows.length; i++) {
    const kind = rows.rows[i]?.kind;
    if (kind !== "entry" && kind !== "entry-without-parent") return false;
  }
  return true;
}

/** The session's exact text with one query; `undefined` when there is no such session. */
export async function readSessionText(
  client: Client,
  schema: { sql: string },
  sessionId: string,
  location: string,
): Promise<string | undefined> {
  const rows = await readSessionRows(client, schema, sessionId, location);
  return rows === undefined ? undefined : sessionTextOf(rows);
}
