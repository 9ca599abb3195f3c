import type { Client } from "pg";
import { SessionStorageError } from "../../storage/session-storage-error";
import { POSTGRES_NOTIFY_CHANNEL } from "../postgres-target";

/** One line of a session as a row of `session_lines`. */
export interface LineRow {
  seq: number;
  /** `entry-without-parent`: an entry line with no `parentId` field (version 1, or malformed). */
  kind: "header" | "entry" | "entry-without-parent" | "other";
  entryId: string | null;
  parentId: string | null;
  type: string | null;
  role: string | null;
  line: string;
}

type Op = { kind: "append" | "rewrite"; rows: LineRow[]; lineCount: number; ticket: number };

/** SQLSTATEs of a connection the server ended (admin shutdown, crash shutdown, cannot connect now). */
const CONNECTION_GONE = new Set(["57P01", "57P02", "57P03", "08000", "08003", "08006"]);

/**
 * The database side of one writer: batches of lines written in append order over the connection
 * that holds the session's advisory lock, one transaction per batch (appends queued while a batch is
 * in flight are group-committed in the next one), each ending with a NOTIFY for followers. A failed
 * batch makes the writer unusable for good (sticky error) and ends the connection, releasing the lock.
 */
export class PgLineWriter {
  private readonly ops: Op[] = [];
  private tickets = 0;
  private done = 0;
  private running = false;
  private closing = false;
  private failure: SessionStorageError | undefined;
  private waiters: Array<{ ticket: number; resolve: () => void; reject: (error: unknown) => void }> = [];

  constructor(
    private readonly client: Client,
    private readonly schema: { name: string; sql: string },
    private readonly sessionId: string,
    private readonly location: string,
  ) {
    const lost = (error?: Error) => {
      if (this.closing && this.ops.length === 0) return;
      this.fail(this.lockLost(error));
    };
    client.on("error", lost);
    client.on("end", () => lost());
  }

  /** Throws the sticky error, if any. */
  assertUsable(): void {
    if (this.failure) throw this.failure;
  }

  /** Queues lines; `lineCount` is the session's line count once they are written. */
  enqueue(kind: "append" | "rewrite", rows: LineRow[], lineCount: number): void {
    this.assertUsable();
    this.ops.push({ kind, rows, lineCount, ticket: ++this.tickets });
    if (!this.running) void this.run();
  }

  /** Resolves when everything queued so far is committed; rejects with the sticky error. */
  flush(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const ticket = this.tickets;
    if (this.done >= ticket) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ ticket, resolve, reject }));
  }

  /** Ends the connection (releasing the lock) once the queued batches are written. */
  close(): void {
    if (this.closing) return;
    this.closing = true;
    if (!this.running) void this.client.end().catch(() => {});
  }

  private async run(): Promise<void> {
    this.running = true;
    while (this.ops.length > 0 && this.failure === undefined) {
      const first = this.ops[0] as Op;
      let count = 1;
      if (first.kind === "append") {
        while (count < this.ops.length && this.ops[count]?.kind === "append") count++;
      }
      const batch = this.ops.slice(0, count);
      const rows = batch.flatMap((op) => op.rows);
      const last = batch[batch.length - 1] as Op;
      try {
        if (first.kind === "rewrite") await this.rewrite(rows, last.lineCount);
        else await this.insert(rows, last.lineCount);
      } catch (error) {
        this.fail(this.classify(error));
        break;
      }
      this.ops.splice(0, count);
      this.done = last.ticket;
      this.waiters = this.waiters.filter((waiter) => {
        if (waiter.ticket > this.done) return true;
        waiter.resolve();
        return false;
      });
    }
    this.running = false;
    if (this.closing || this.failure) void this.client.end().catch(() => {});
  }

  private async insert(rows: LineRow[], lineCount: number): Promise<void> {
    const s = this.schema.sql;
    const header = rows.find((row) => row.kind === "header");
    const parsed = header ? (JSON.parse(header.line) as { cwd?: unknown; version?: unknown }) : undefined;
    await this.client.query(
      `WITH ins AS (
  INSERT INTO ${s}.session_lines (session_id, seq, kind, entry_id, parent_id, type, role, line)
  SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
), upd AS (
  UPDATE ${s}.sessions SET line_count = $9, ends_with_newline = true, updated_at = now(),
    cwd = COALESCE($10, cwd), version = COALESCE($11, version)
  WHERE id = $1
)
SELECT pg_notify($12, $13)`,
      [
        this.sessionId,
        rows.map((row) => row.seq),
        rows.map((row) => row.kind),
        rows.map((row) => row.entryId),
        rows.map((row) => row.parentId),
        rows.map((row) => row.type),
        rows.map((row) => row.role),
        rows.map((row) => row.line),
        lineCount,
        typeof parsed?.cwd === "string" ? parsed.cwd : null,
        typeof parsed?.version === "number" ? parsed.version : null,
        POSTGRES_NOTIFY_CHANNEL,
        `${this.schema.name}:${lineCount}:${this.sessionId}`,
      ],
    );
  }

  /** Replaces every line (a migrated session), keeping the old text in `session_backups`. */
  private async rewrite(rows: LineRow[], lineCount: number): Promise<void> {
    const s = this.schema.sql;
    await this.client.query("BEGIN");
    try {
      await this.client.query(
        `INSERT INTO ${s}.session_backups (session_id, content)
SELECT $1, COALESCE(string_agg(line, E'\\n' ORDER BY seq), '')
  || CASE WHEN count(*) > 0 AND bool_and(ends_with_newline) THEN E'\\n' ELSE '' END
FROM ${s}.session_lines JOIN ${s}.sessions ON sessions.id = session_lines.session_id WHERE session_id = $1`,
        [this.sessionId],
      );
      await this.client.query(`DELETE FROM ${s}.session_lines WHERE session_id = $1`, [this.sessionId]);
      await this.insert(rows, lineCount);
      await this.client.query("COMMIT");
    } catch (error) {
      await this.client.query("ROLLBACK").catch(() => {});
      throw error;
    }
  }

  private fail(error: SessionStorageError): void {
    if (this.failure) return;
    this.failure = error;
    for (const waiter of this.waiters) waiter.reject(error);
    this.waiters = [];
    if (!this.running) void this.client.end().catch(() => {});
  }

  private classify(error: unknown): SessionStorageError {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) && !CONNECTION_GONE.has(code)) {
      return new SessionStorageError(
        "SESSION_WRITE_FAILED",
        `${this.location}: writing lines failed (${code}: ${(error as Error).message}). Nothing of that batch was written; the session must be reopened.`,
        { path: this.location, cause: error },
      );
    }
    return this.lockLost(error as Error);
  }

  private lockLost(error?: Error): SessionStorageError {
    return new SessionStorageError(
      "SESSION_LOCK_LOST",
      `${this.location}: the writer's database connection ended${error?.message ? ` (${error.message})` : ""}, and with it the session's writer lock. Entries not flushed may be lost; reopen the session to write again.`,
      { path: this.location, ...(error ? { cause: error } : {}) },
    );
  }
}
