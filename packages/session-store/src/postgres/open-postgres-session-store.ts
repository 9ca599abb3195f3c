import { hostname } from "node:os";
import type { Client } from "pg";
import { defaultCreateStorage } from "../default-create-storage";
import { SessionStore } from "../session-store";
import type { SessionStoreOptions } from "../session-store-options";
import { type SessionLockHolder, SessionStorageError } from "../storage/session-storage-error";
import { createLineFetcher } from "./internal/line-fetcher";
import { connectClient, describeSession, readFailed, schemaOf } from "./internal/pg-connect";
import { PgLineWriter } from "./internal/pg-line-writer";
import { createPostgresStorage } from "./internal/postgres-storage";
import {
  readSessionRecords,
  readSessionRows,
  rowsAreClean,
  sessionTextOf,
} from "./internal/read-session-text";
import type { PostgresTarget } from "./postgres-target";

/** Options of {@link openPostgresSessionStore}. */
export interface PostgresSessionStoreOptions extends Omit<SessionStoreOptions, "sessionId"> {
  /**
   * `"write"` (default): take the session's writer lock (a missing session is created by the first
   * append, its header from the options); `"read"`: no lock, appends refused, the session must exist.
   */
  mode?: "write" | "read";
}

/**
 * Opens session `sessionId` in the PostgreSQL database of `target` and returns a {@link SessionStore}
 * over it. Opening reads the light records of every line with one query (no line text), then fetches
 * the lines that the projection of the leaf, the labels and the session name need, in a few batched
 * queries (`SessionStore.prefetchProjection`); any other entry is read when the store first needs one
 * (one blocking query for every line not held yet, on a worker thread; see docs/postgres.md).
 * Sessions with blank, corrupt or torn lines, or of version 1 or 2, and any session opened with
 * `validate: "full"` (which reads every entry) are read whole. Appends are visible at once and durable once `await store.flush()`
 * resolves (see docs/postgres.md for the contract). With `mode: "write"` the store holds the writer
 * lock on its own connection until `close()`.
 *
 * @throws SessionStorageError `SESSION_LOCKED` (another writer holds the session; `holder` names it),
 *   `SESSION_NOT_FOUND` (mode `read`, no such session), `SESSION_READ_FAILED` (no server, no `pg`,
 *   schema not migrated), `SESSION_TARGET_INVALID`; SessionStoreError `SESSION_HEADER_INVALID`.
 * @example
 * const store = await openPostgresSessionStore({ connectionString: url }, sessionId);
 * store.appendMessage({ role: "user", content: "hi", timestamp: Date.now() });
 * await store.flush(); // durable in the database
 * store.close();
 */
export async function openPostgresSessionStore(
  target: PostgresTarget,
  sessionId: string,
  options: PostgresSessionStoreOptions = {},
): Promise<SessionStore> {
  const schema = schemaOf(target);
  const location = describeSession(target, sessionId);
  const mode = options.mode ?? "write";
  const client = await connectClient(target, mode === "write" ? "writer" : "reader");
  let writer: PgLineWriter | undefined;
  try {
    if (mode === "write") await takeWriterLock(client, schema, sessionId, location);
    const records = await readSessionRecords(client, schema, sessionId, location);
    if (records === undefined && mode === "read") {
      throw new SessionStorageError("SESSION_NOT_FOUND", `${location}: no such session.`, { path: location });
    }
    const clean = records === undefined || rowsAreClean(records);
    // A session with blank, corrupt or torn lines, or of version 1 or 2, goes through the scanner;
    // with `validate: "full"` every line is read now anyway, so it comes with the rows.
    const whole = records !== undefined && (!clean || options.validate === "full");
    const read = whole ? await readSessionRows(client, schema, sessionId, location) : undefined;
    const text = read !== undefined && !clean ? read : undefined;
    if (mode === "write") writer = new PgLineWriter(client, schema, sessionId, location);
    // Only the records were read: the lines come through the read seam (and its blocking fallback).
    const lazy = clean && read === undefined && records?.rows.some((row) => row.line === undefined) === true;
    const fetcher = lazy
      ? createLineFetcher(target, schema, sessionId, location, mode === "read" ? client : undefined)
      : undefined;
    if (mode === "read" && !lazy) await client.end();
    const source =
      text !== undefined ? { text: sessionTextOf(text) } : { rows: read?.rows ?? records?.rows ?? [] };
    const storage = createPostgresStorage(source, location, writer, fetcher);
    let store: SessionStore | undefined;
    try {
      store = new SessionStore(storage, {
        ...options,
        sessionId,
        createStorage: options.createStorage ?? defaultCreateStorage(),
      });
      await store.prefetchProjection();
      return store;
    } catch (error) {
      if (store !== undefined) store.close();
      else storage.close();
      throw error;
    }
  } catch (error) {
    if (writer === undefined) await client.end().catch(() => {});
    throw error;
  }
}

async function takeWriterLock(
  client: Client,
  schema: { name: string; sql: string },
  sessionId: string,
  location: string,
): Promise<void> {
  const s = schema.sql;
  let key: number;
  try {
    await client.query(`INSERT INTO ${s}.sessions (id) VALUES ($1) ON CONFLICT (id) DO NOTHING`, [sessionId]);
    const row = await client.query<{ lock_key: number }>(`SELECT lock_key FROM ${s}.sessions WHERE id = $1`, [
      sessionId,
    ]);
    key = row.rows[0]?.lock_key as number;
  } catch (error) {
    throw readFailed(location, error);
  }
  const taken = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock(hashtext($1), $2) AS ok", [
    schema.name,
    key,
  ]);
  if (taken.rows[0]?.ok === true) {
    await client.query(
      `UPDATE ${s}.sessions SET writer = jsonb_build_object('hostname', $2::text, 'pid', $3::int, 'backendPid', pg_backend_pid(), 'acquiredAt', now()) WHERE id = $1`,
      [sessionId, hostname(), process.pid],
    );
    return;
  }
  const readHolder = async () =>
    (
      await client.query<{ pid: number; writer: Record<string, unknown> | null }>(
        `SELECT l.pid, s.writer FROM pg_locks l, ${s}.sessions s
WHERE l.locktype = 'advisory' AND l.granted AND l.classid = hashtext($1)::oid AND l.objid = $2::oid AND l.objsubid = 2 AND s.id = $3`,
        [schema.name, key, sessionId],
      )
    ).rows[0];
  let found = await readHolder();
  // The holder records itself right after taking the lock: give that write a moment to commit.
  for (
    let attempt = 0;
    attempt < 25 && found !== undefined && found.writer?.backendPid !== found.pid;
    attempt++
  ) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    found = await readHolder();
  }
  const written = found?.writer?.backendPid === found?.pid ? found?.writer : undefined;
  const same = written !== undefined && written !== null;
  const lockHolder: SessionLockHolder = {
    pid: same ? Number(written?.pid) : 0,
    hostname: same ? String(written?.hostname) : "unknown",
    acquiredAt: same ? String(written?.acquiredAt) : "",
    token: `pg-backend-${found?.pid ?? "unknown"}`,
  };
  const who = same
    ? `${lockHolder.hostname} pid ${lockHolder.pid} since ${lockHolder.acquiredAt} (database backend ${found?.pid})`
    : `database backend ${found?.pid ?? "(gone)"}`;
  throw new SessionStorageError(
    "SESSION_LOCKED",
    `${location} is being written by another writer: ${who}. Open it with mode "read" to read it, or wait until that writer closes it.`,
    { path: location, holder: lockHolder },
  );
}
