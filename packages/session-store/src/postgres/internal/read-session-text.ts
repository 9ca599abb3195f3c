import type { Client } from "pg";
import { readFailed } from "./pg-connect";

/**
 * The session's lines in file order joined back into its exact text, with one query; `undefined`
 * when there is no session row (or a row without lines: a writer that never wrote).
 */
export async function readSessionText(
  client: Client,
  schema: { sql: string },
  sessionId: string,
  location: string,
): Promise<string | undefined> {
  try {
    const result = await client.query<{ text: string | null; ends: boolean }>(
      `SELECT (SELECT string_agg(line, E'\\n' ORDER BY seq) FROM ${schema.sql}.session_lines WHERE session_id = $1) AS text,
  ends_with_newline AS ends FROM ${schema.sql}.sessions WHERE id = $1`,
      [sessionId],
    );
    const row = result.rows[0];
    if (row === undefined || row.text === null) return undefined;
    return row.ends ? `${row.text}\n` : row.text;
  } catch (error) {
    throw readFailed(location, error);
  }
}
