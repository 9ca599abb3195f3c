import type { Client } from "pg";
import { SessionStorageError } from "../../storage/session-storage-error";
import type { PostgresTarget } from "../postgres-target";
import { BlockingLineQuery } from "./blocking-line-query";
import { clientConfigOf, connectClient } from "./pg-connect";

/** Reads lines of one session by their `seq`, asynchronously or (the fallback) blocking. */
export interface LineFetcher {
  /** The lines of `seqs` (one query). Rejects with `SESSION_READ_FAILED`. */
  fetch(seqs: readonly number[]): Promise<Map<number, string>>;
  /** The same, blocking this thread for the query (see {@link BlockingLineQuery}). */
  fetchBlocking(seqs: readonly number[]): Map<number, string>;
  /** Ends the connections. Idempotent. */
  close(): void;
}

/**
 * A {@link LineFetcher} for session `sessionId`: asynchronous reads go through `client` (a reader's
 * connection, kept until `close`) or a connection of its own opened on first use (a writer's
 * connection carries its write transactions: reads stay off it); blocking reads through a worker
 * thread with its own connection, started on first use.
 */
export function createLineFetcher(
  target: PostgresTarget,
  schema: { sql: string },
  sessionId: string,
  location: string,
  client?: Client,
): LineFetcher {
  const sql = `SELECT seq, line FROM ${schema.sql}.session_lines WHERE session_id = $1 AND seq = ANY($2::int[])`;
  let connection: Promise<Client> | undefined = client ? Promise.resolve(client) : undefined;
  let blocking: BlockingLineQuery<{ seq: number; line: string }> | undefined;
  const failed = (error: unknown) =>
    new SessionStorageError(
      "SESSION_READ_FAILED",
      `${location}: could not read lines of the session: ${(error as Error).message}`,
      { path: location, cause: error },
    );
  const collect = (rows: ReadonlyArray<{ seq: number; line: string }>, seqs: readonly number[]) => {
    const lines = new Map<number, string>();
    for (const row of rows) lines.set(row.seq, row.line);
    const missing = seqs.find((seq) => !lines.has(seq));
    if (missing !== undefined) {
      throw new SessionStorageError(
        "SESSION_FILE_CHANGED",
        `${location}:${missing + 1}: the line is no longer in the database (the session was removed or rewritten since it was opened). Reopen it.`,
        { path: location, line: missing + 1 },
      );
    }
    return lines;
  };
  return {
    async fetch(seqs) {
      if (seqs.length === 0) return new Map();
      let rows: Array<{ seq: number; line: string }>;
      try {
        connection ??= connectClient(target, "reader");
        rows = (await (await connection).query<{ seq: number; line: string }>(sql, [sessionId, seqs])).rows;
      } catch (error) {
        throw SessionStorageError.isInstance(error) ? error : failed(error);
      }
      return collect(rows, seqs);
    },
    fetchBlocking(seqs) {
      if (seqs.length === 0) return new Map();
      blocking ??= new BlockingLineQuery(
        clientConfigOf(target, "reader") as unknown as Record<string, unknown>,
        sql,
      );
      let rows: Array<{ seq: number; line: string }>;
      try {
        rows = blocking.run([sessionId, seqs]);
      } catch (error) {
        throw failed(error);
      }
      return collect(rows, seqs);
    },
    close() {
      blocking?.close();
      const open = connection;
      connection = undefined;
      void open?.then((c) => c.end()).catch(() => {});
    },
  };
}
