import { hostname } from "node:os";
import { testPostgres } from "@arbor/test-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionStore } from "../session-store";
import { SessionStorageError } from "../storage/session-storage-error";
import { type FollowedLine, followPostgresSession } from "./follow-postgres-session";
import { openPostgresSessionStore } from "./open-postgres-session-store";
import { migratePostgres } from "./postgres-migrations";

const db = await testPostgres();
const problem = db.skipReason();
const target = db.target("lock");
/** Why a test needing `features` is skipped here (the embedded PostgreSQL lacks them), or "". */
const lacking = (...features: Parameters<typeof db.skipReason>) => {
  const reason = db.skipReason(...features);
  return reason === undefined ? "" : ` (skipped: ${reason})`;
};

function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** The backend pid of the connection holding `store`'s writer lock. */
async function writerBackend(sessionId: string): Promise<number> {
  const rows = await db.query<{ pid: number }>(
    `SELECT (writer->>'backendPid')::int AS pid FROM "${target.schema}".sessions WHERE id = $1`,
    [sessionId],
  );
  return rows[0]?.pid as number;
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe.skipIf(problem !== undefined)(
  `one writer, many readers${problem ? ` (skipped: ${problem})` : ""}`,
  () => {
    beforeAll(async () => {
      await migratePostgres(target);
    });
    afterAll(async () => {
      await db.dropSchema(target.schema);
    });

    const exclusive = lacking("separate-backends");
    it.skipIf(exclusive !== "")(
      `refuses a second writer with SESSION_LOCKED naming the holder, and lets it in once the first closes${exclusive}`,
      async () => {
        const first = await openPostgresSessionStore(target, "locked");
        first.appendMessage({ role: "user", content: "one", timestamp: 1 });
        await first.flush();
        const error = await openPostgresSessionStore(target, "locked").catch((e) => e);
        expect(SessionStorageError.isInstance(error) && error.code).toBe("SESSION_LOCKED");
        expect(error.holder).toMatchObject({ pid: process.pid, hostname: hostname() });
        expect(error.message).toContain(`${hostname()} pid ${process.pid}`);
        // Readers are never refused.
        const reader = await openPostgresSessionStore(target, "locked", { mode: "read" });
        expect(reader.getEntryCount()).toBe(1);
        reader.close();
        first.close();
        let second: SessionStore | undefined;
        for (let attempt = 0; second === undefined; attempt++) {
          second = await openPostgresSessionStore(target, "locked").catch((e) => {
            if (attempt > 100 || e.code !== "SESSION_LOCKED") throw e;
            return undefined;
          });
        }
        expect(second.getEntryCount()).toBe(1);
        second.close();
      },
    );

    it.skipIf(exclusive !== "")(
      `a writer whose connection is terminated loses the lock and cannot write again; nothing flushed is lost${exclusive}`,
      async () => {
        const writer = await openPostgresSessionStore(target, "killed");
        const kept = writer.appendMessage({ role: "user", content: "durable", timestamp: 1 });
        await writer.flush();
        await db.query("SELECT pg_terminate_backend($1)", [await writerBackend("killed")]);
        // The connection's end reaches the writer as an event; from then on every append throws.
        await until(
          () =>
            caught(() => writer.appendMessage({ role: "user", content: "x", timestamp: 2 })) !== undefined,
        );
        const error = caught(() => writer.appendMessage({ role: "user", content: "lost", timestamp: 3 }));
        expect(SessionStorageError.isInstance(error) && error.code).toBe("SESSION_LOCK_LOST");
        await expect(writer.flush()).rejects.toMatchObject({ code: "SESSION_LOCK_LOST" });
        writer.close();
        const next = await openPostgresSessionStore(target, "killed");
        expect(next.getEntries().map((entry) => entry.id)).toEqual([kept.id]);
        next.close();
      },
    );

    it.skipIf(exclusive !== "")(
      `a write in flight when the connection is terminated rejects flush with SESSION_LOCK_LOST${exclusive}`,
      async () => {
        const writer = await openPostgresSessionStore(target, "cut");
        writer.appendMessage({ role: "user", content: "first", timestamp: 1 });
        await writer.flush();
        const backend = await writerBackend("cut");
        // Hold the session row so the next batch waits in the server, then terminate the writer.
        const blocker = await openBlocker(`LOCK TABLE "${target.schema}".sessions IN EXCLUSIVE MODE`);
        writer.appendMessage({ role: "user", content: "in flight", timestamp: 2 });
        const flushed = writer.flush().then(
          () => "flushed",
          (error: unknown) => error,
        );
        await new Promise((resolve) => setTimeout(resolve, 100));
        await db.query("SELECT pg_terminate_backend($1)", [backend]);
        await blocker.release();
        expect(await flushed).toMatchObject({ code: "SESSION_LOCK_LOST" });
        writer.close();
        const reader = await openPostgresSessionStore(target, "cut", { mode: "read" });
        expect(reader.getEntryCount()).toBe(1);
        reader.close();
      },
    );

    const notify = lacking("listen-notify");
    it.skipIf(notify !== "")(
      `a follower on another connection receives each committed batch within 100 ms${notify}`,
      async () => {
        const writer = await openPostgresSessionStore(target, "followed");
        writer.appendMessage({ role: "user", content: "before", timestamp: 1 });
        await writer.flush();
        const received: Array<{ at: number; lines: FollowedLine[] }> = [];
        const follower = await followPostgresSession(target, "followed", {
          onLines: (lines) => {
            received.push({ at: performance.now(), lines });
          },
        });
        // Caught up: the header and the first entry.
        expect(received.flatMap((batch) => batch.lines.map((line) => line.line))).toEqual([1, 2]);
        const delays: number[] = [];
        for (let round = 0; round < 5; round++) {
          const entry = writer.appendMessage({
            role: "user",
            content: `live ${round}`,
            timestamp: 2 + round,
          });
          await writer.flush();
          const committed = performance.now();
          await until(
            () => received.some((batch) => batch.lines.some((line) => line.text.includes(entry.id))),
            2000,
          );
          const batch = received.find((b) => b.lines.some((line) => line.text.includes(entry.id)));
          delays.push((batch?.at as number) - committed);
        }
        expect(Math.max(...delays)).toBeLessThan(100);
        expect(received.flatMap((batch) => batch.lines.map((line) => line.line))).toEqual([
          1, 2, 3, 4, 5, 6, 7,
        ]);
        expect(follower.lastLine).toBe(7);
        await follower.close();
        writer.close();
      },
    );
  },
);

/** A connection holding a lock until released. */
async function openBlocker(statement: string): Promise<{ release: () => Promise<void> }> {
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query("BEGIN");
  await client.query(statement);
  return {
    release: async () => {
      await client.query("COMMIT");
      await client.end();
    },
  };
}
