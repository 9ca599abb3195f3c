import { SessionStorageError } from "../storage/session-storage-error";
import { connectClient, describeSession, schemaOf } from "./internal/pg-connect";
import { POSTGRES_NOTIFY_CHANNEL, type PostgresTarget } from "./postgres-target";

/** One committed line delivered to a follower. */
export interface FollowedLine {
  /** 1-based line number in the session file (the header is line 1). */
  line: number;
  /** The exact JSON text of the line. */
  text: string;
}

/** Options of {@link followPostgresSession}. */
export interface FollowPostgresSessionOptions {
  /** Deliver lines after this 1-based line number (default 0: from the header on). */
  afterLine?: number;
  /**
   * Called with each batch of newly committed lines, in file order, never twice for a line.
   *
   * Contract: may be async (the next batch waits for it); an exception stops the follower and is
   * passed to `onError`.
   */
  onLines: (lines: FollowedLine[]) => void | Promise<void>;
  /** Called once when following stops on an error (connection lost, `onLines` threw). */
  onError?: (error: unknown) => void;
}

/** A running follower. */
export interface PostgresSessionFollower {
  /** The last line delivered so far (1-based; 0 before any). */
  readonly lastLine: number;
  /** Stops following and ends the connection. Idempotent. */
  close(): Promise<void>;
}

/**
 * Follows a session live: LISTENs on its own connection for the notification every write
 * transaction sends, and on each one reads the new lines (one query) and hands them to `onLines`.
 * Catches up first (lines committed before the call). Lines arrive within milliseconds of the
 * writer's commit. Needs no lock: any number of followers per session.
 *
 * @throws SessionStorageError `SESSION_READ_FAILED` when the server cannot be reached.
 * @example
 * const follower = await followPostgresSession(target, id, { onLines: (lines) => console.log(lines) });
 */
export async function followPostgresSession(
  target: PostgresTarget,
  sessionId: string,
  options: FollowPostgresSessionOptions,
): Promise<PostgresSessionFollower> {
  const schema = schemaOf(target);
  const location = describeSession(target, sessionId);
  const client = await connectClient(target, "follower");
  let lastLine = options.afterLine ?? 0;
  let stopped = false;
  let reading: Promise<void> = Promise.resolve();
  let again = false;
  let busy = false;

  const stop = (error: unknown) => {
    if (stopped) return;
    stopped = true;
    void client.end().catch(() => {});
    options.onError?.(error);
  };
  const readNew = async () => {
    const result = await client.query<{ seq: number; line: string }>(
      `SELECT seq, line FROM ${schema.sql}.session_lines WHERE session_id = $1 AND seq >= $2 ORDER BY seq`,
      [sessionId, lastLine],
    );
    if (result.rows.length === 0 || stopped) return;
    const lines = result.rows.map((row) => ({ line: row.seq + 1, text: row.line }));
    lastLine = (lines[lines.length - 1] as FollowedLine).line;
    await options.onLines(lines);
  };
  const poke = () => {
    if (stopped) return;
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    reading = (async () => {
      try {
        do {
          again = false;
          await readNew();
        } while (again && !stopped);
      } catch (error) {
        stop(error);
      } finally {
        busy = false;
      }
    })();
  };
  const prefix = `${schema.name}:`;
  client.on("notification", (message) => {
    if (message.channel !== POSTGRES_NOTIFY_CHANNEL || !message.payload?.startsWith(prefix)) return;
    const rest = message.payload.slice(prefix.length);
    const colon = rest.indexOf(":");
    if (rest.slice(colon + 1) !== sessionId) return;
    if (Number(rest.slice(0, colon)) > lastLine) poke();
  });
  client.on("error", (error) =>
    stop(
      new SessionStorageError("SESSION_READ_FAILED", `${location}: following stopped: ${error.message}`, {
        path: location,
        cause: error,
      }),
    ),
  );
  await client.query(`LISTEN ${POSTGRES_NOTIFY_CHANNEL}`);
  poke();
  await reading;
  return {
    get lastLine() {
      return lastLine;
    },
    async close() {
      if (stopped) return;
      stopped = true;
      await reading.catch(() => {});
      await client.end().catch(() => {});
    },
  };
}
