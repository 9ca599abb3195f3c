import { connectClient, describeSession, readFailed, schemaOf } from "./internal/pg-connect";
import type { PostgresTarget } from "./postgres-target";

/** One session of a database, as {@link listPostgresSessions} reports it. */
export interface PostgresSessionSummary {
  /** The session id (the fragment of its location). */
  id: string;
  /** `postgresql://host/db#<id>` (no password). */
  location: string;
  /** The header's `cwd`, when it has one. */
  cwd: string | undefined;
  /** The latest `session_info` name, when set. */
  name: string | undefined;
  /** Lines after the header (entries, and any blank or corrupt lines). */
  entryCount: number;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Every session stored in `target` (rows without lines, left by a writer that never wrote, are left
 * out), most recently updated first. One query; reads no entry but the latest name of each.
 *
 * @throws SessionStorageError `SESSION_READ_FAILED` (no server, schema not migrated).
 */
export async function listPostgresSessions(target: PostgresTarget): Promise<PostgresSessionSummary[]> {
  const schema = schemaOf(target);
  const client = await connectClient(target, "list");
  try {
    const s = schema.sql;
    const result = await client.query<{
      id: string;
      cwd: string | null;
      name_line: string | null;
      line_count: number;
      created_at: Date;
      updated_at: Date;
    }>(
      `SELECT s.id, s.cwd, s.line_count, s.created_at, s.updated_at,
  (SELECT line FROM ${s}.session_lines l WHERE l.session_id = s.id AND l.type = 'session_info' ORDER BY seq DESC LIMIT 1) AS name_line
FROM ${s}.sessions s WHERE s.line_count > 0 ORDER BY s.updated_at DESC, s.id`,
    );
    return result.rows.map((row) => ({
      id: row.id,
      location: describeSession(target, row.id),
      cwd: row.cwd ?? undefined,
      name: nameOf(row.name_line),
      entryCount: Math.max(0, row.line_count - 1),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    }));
  } catch (error) {
    throw readFailed(`${schema.name} sessions`, error);
  } finally {
    await client.end().catch(() => {});
  }
}

function nameOf(line: string | null): string | undefined {
  if (line === null) return undefined;
  try {
    const name = (JSON.parse(line) as { name?: unknown }).name;
    return typeof name === "string" && name.trim() !== "" ? name.trim() : undefined;
  } catch {
    return undefined;
  }
}
