import { SessionStorageError } from "../storage/session-storage-error";
import { connectClient, describeSession, readFailed, schemaOf } from "./internal/pg-connect";
import type { PostgresTarget } from "./postgres-target";

/** Options of {@link streamPostgresSession}. */
export interface StreamPostgresSessionOptions {
  /** Lines read per query (a positive integer; default 4,096). */
  batchLines?: number;
}

/**
 * The committed text of a session, as {@link exportPostgresSession} gives it (the exact bytes imported
 * or written, in file order), in chunks of at most `batchLines` lines: concatenated, the chunks are
 * that text. For sessions too large to hold as one string (a 100,000-entry session is ~190 MB of text,
 * and the single query of `exportPostgresSession` holds every row besides). The chunks come from one
 * read-only snapshot (a `REPEATABLE READ` transaction), so lines a writer commits meanwhile are not
 * part of it. The connection is closed when the iteration ends, fails or is stopped early.
 *
 * @throws SessionStorageError `SESSION_NOT_FOUND` (before any chunk), `SESSION_OPTIONS_INVALID` (a
 *   bad `batchLines`), `SESSION_READ_FAILED` (server).
 * @example
 * for await (const chunk of streamPostgresSession(target, id)) out.write(chunk);
 */
export async function* streamPostgresSession(
  target: PostgresTarget,
  sessionId: string,
  options: StreamPostgresSessionOptions = {},
): AsyncGenerator<string, void, undefined> {
  const batch = options.batchLines ?? 4096;
  const location = describeSession(target, sessionId);
  if (!Number.isSafeInteger(batch) || batch < 1) {
    throw new SessionStorageError(
      "SESSION_OPTIONS_INVALID",
      `${location}: batchLines must be a positive integer (got ${String(batch)}).`,
      { path: location },
    );
  }
  const s = schemaOf(target).sql;
  const client = await connectClient(target, "export");
  let open = false;
  try {
    const read = async <T>(text: string, values: unknown[], rowMode?: "array") => {
      try {
        return await client.query<T & object>({ text, values, ...(rowMode ? { rowMode } : {}) });
      } catch (error) {
        throw readFailed(location, error);
      }
    };
    await read("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", []);
    open = true;
    const session = await read<{ ends: boolean }>(
      `SELECT ends_with_newline AS ends FROM ${s}.sessions WHERE id = $1`,
      [sessionId],
    );
    const ends = session.rows[0]?.ends;
    const notFound = () =>
      new SessionStorageError("SESSION_NOT_FOUND", `${location}: no such session.`, { path: location });
    if (ends === undefined) throw notFound();
    let after = -1;
    let lines = 0;
    for (;;) {
      const page = await read<[number, string]>(
        `SELECT seq, line FROM ${s}.session_lines WHERE session_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
        [sessionId, after, batch],
        "array",
      );
      const rows = page.rows as unknown as Array<[number, string]>;
      if (rows.length === 0) break;
      const text = rows.map((row) => row[1]).join("\n");
      yield lines === 0 ? text : `\n${text}`;
      lines += rows.length;
      after = (rows.at(-1) as [number, string])[0];
      if (rows.length < batch) break;
    }
    // A session row without lines is a writer that never wrote: no session, as for the export.
    if (lines === 0) throw notFound();
    if (ends) yield "\n";
    await read("COMMIT", []);
    open = false;
  } finally {
    if (open) await client.query("ROLLBACK").catch(() => {});
    await client.end().catch(() => {});
  }
}
