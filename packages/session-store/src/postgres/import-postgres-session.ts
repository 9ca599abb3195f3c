import { createMemoryStorage } from "../storage/create-memory-storage";
import { SessionStorageError } from "../storage/session-storage-error";
import { connectClient, describeSession, schemaOf } from "./internal/pg-connect";
import { migratePostgres } from "./postgres-migrations";
import type { PostgresTarget } from "./postgres-target";

/** Options of {@link importPostgresSession}. */
export interface ImportPostgresSessionOptions {
  /** Store it under this id instead of the header's `id`. The text is kept unchanged either way. */
  sessionId?: string;
  /** Run {@link migratePostgres} first (default `true`). */
  migrate?: boolean;
}

/**
 * Copies a session file's text into the database, byte for byte: every line (header, entries of
 * every type, unknown types, blank and corrupt lines, a torn last line) becomes a row in file order,
 * so {@link exportPostgresSession} gives back exactly `text`. One transaction; returns the session id
 * (the header's `id`).
 *
 * @throws SessionStorageError `SESSION_HEADER_INVALID` (no header line), `SESSION_EXISTS` (the id is
 *   taken: nothing is written), `SESSION_ENTRY_INVALID` (text PostgreSQL cannot hold: a NUL byte),
 *   `SESSION_READ_FAILED` / `SESSION_WRITE_FAILED` (server).
 * @example
 * const id = await importPostgresSession(target, readFileSync("s.jsonl", "utf8"));
 */
export async function importPostgresSession(
  target: PostgresTarget,
  text: string,
  options: ImportPostgresSessionOptions = {},
): Promise<string> {
  const schema = schemaOf(target);
  const storage = createMemoryStorage({ content: text, name: "import" });
  const loaded = storage.load();
  const header = loaded.header;
  if (header === undefined) {
    throw new SessionStorageError("SESSION_HEADER_INVALID", "The text to import has no session header line.");
  }
  const sessionId = options.sessionId ?? String(header.id);
  const location = describeSession(target, sessionId);
  if (text.includes("\u0000")) {
    throw new SessionStorageError(
      "SESSION_ENTRY_INVALID",
      `${location}: the session text holds a NUL character, which PostgreSQL text cannot store. Nothing was imported.`,
      { path: location },
    );
  }
  const lines = text === "" ? [] : text.replace(/\n$/, "").split("\n");
  const kinds: string[] = lines.map(() => "other");
  const ids: Array<string | null> = lines.map(() => null);
  const parents: Array<string | null> = lines.map(() => null);
  const types: Array<string | null> = lines.map(() => null);
  const roles: Array<string | null> = lines.map(() => null);
  loaded.records.forEach((record, index) => {
    const seq = (storage.lineOf(index) as number) - 1;
    kinds[seq] = record.parentId === undefined ? "entry-without-parent" : "entry";
    ids[seq] = record.id ?? null;
    parents[seq] = record.parentId ?? null;
    types[seq] = record.type;
    roles[seq] = record.role ?? null;
  });
  const headerSeq = kinds.findIndex(
    (kind, seq) => kind === "other" && /^\s*\{/.test(lines[seq] ?? "") && isHeaderLine(lines[seq] as string),
  );
  if (headerSeq >= 0) {
    kinds[headerSeq] = "header";
    ids[headerSeq] = String(header.id);
    types[headerSeq] = "session";
  }
  if (options.migrate ?? true) await migratePostgres(target);
  const client = await connectClient(target, "import");
  const s = schema.sql;
  try {
    await client.query("BEGIN");
    const created = await client.query(
      `INSERT INTO ${s}.sessions (id, cwd, version, line_count, ends_with_newline) VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (id) DO UPDATE SET cwd = EXCLUDED.cwd, version = EXCLUDED.version, line_count = EXCLUDED.line_count, ends_with_newline = EXCLUDED.ends_with_newline
WHERE ${s}.sessions.line_count = 0 RETURNING id`,
      [
        sessionId,
        typeof header.cwd === "string" ? header.cwd : null,
        typeof header.version === "number" ? header.version : null,
        lines.length,
        text.endsWith("\n"),
      ],
    );
    if (created.rowCount === 0) {
      throw new SessionStorageError(
        "SESSION_EXISTS",
        `${location} already exists: nothing was imported (export it or pick another id).`,
        { path: location },
      );
    }
    // In batches (one transaction still): one statement carrying every line of a large session
    // made the driver build a parameter text of several times its size (2.4 GB for 192 MB).
    for (let from = 0; from < lines.length; ) {
      const to = batchEnd(lines, from);
      await client.query(
        `INSERT INTO ${s}.session_lines (session_id, seq, kind, entry_id, parent_id, type, role, line)
SELECT $1, $8::integer + seq - 1, kind, entry_id, parent_id, type, role, line
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) WITH ORDINALITY AS t(kind, entry_id, parent_id, type, role, line, seq)`,
        [
          sessionId,
          kinds.slice(from, to),
          ids.slice(from, to),
          parents.slice(from, to),
          types.slice(from, to),
          roles.slice(from, to),
          lines.slice(from, to),
          from,
        ],
      );
      from = to;
    }
    await client.query("COMMIT");
    return sessionId;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    if (SessionStorageError.isInstance(error)) throw error;
    throw new SessionStorageError(
      "SESSION_WRITE_FAILED",
      `${location}: import failed (${(error as Error).message}). Nothing was imported.`,
      { path: location, cause: error },
    );
  } finally {
    await client.end().catch(() => {});
  }
}

/** Most lines, and most characters of line text, in one insert. */
const BATCH_LINES = 4096;
const BATCH_CHARS = 8 * 1024 * 1024;

/** Where the batch of lines starting at `from` ends: at least one line, then up to either limit. */
function batchEnd(lines: readonly string[], from: number): number {
  let to = from + 1;
  let chars = (lines[from] as string).length;
  while (
    to < lines.length &&
    to - from < BATCH_LINES &&
    chars + (lines[to] as string).length <= BATCH_CHARS
  ) {
    chars += (lines[to] as string).length;
    to++;
  }
  return to;
}

function isHeaderLine(line: string): boolean {
  try {
    const value = JSON.parse(line) as { type?: unknown };
    return value !== null && typeof value === "object" && value.type === "session";
  } catch {
    return false;
  }
}
