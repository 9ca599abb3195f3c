#!/usr/bin/env node
/**
 * Load run of the PostgreSQL session backend (docs/benchmarks.md, "Sessions in PostgreSQL"):
 * WORKERS processes × SESSIONS sessions each, APPENDS appends per session, every append awaited with
 * `store.flush()` (append-to-durable latency); each worker keeps CONCURRENCY sessions open at a time
 * (one writer connection each). One follower process LISTENs on one connection and reads every
 * session's new lines as they are committed (append-to-reader latency). Prints one JSON object.
 *
 *   pnpm --filter @arbor/session-store build
 *   node apps/reliability/scripts/pg-load.mjs [WORKERS=8] [SESSIONS=200] [APPENDS=10] [CONCURRENCY=4]
 *
 * Server: ARBOR_TEST_PG_URL (default postgresql://postgres@127.0.0.1:5432/test); a fresh schema is
 * created and dropped.
 */
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import {
  migratePostgres,
  openPostgresSessionStore,
  POSTGRES_NOTIFY_CHANNEL,
} from "@arbor/session-store/postgres";
import pg from "pg";

const URL_ = process.env.ARBOR_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const now = () => performance.timeOrigin + performance.now();
const [role] = process.argv.slice(2);

if (role === "worker") {
  const { schema, worker, sessions, appends, concurrency } = JSON.parse(process.argv[3]);
  const target = { connectionString: URL_, schema };
  const latencies = [];
  const appended = {}; // `<session>:<line count>` → append time
  let next = 0;
  const lane = async () => {
    for (;;) {
      const index = next++;
      if (index >= sessions) return;
      const id = `w${worker}-s${index}`;
      const store = await openPostgresSessionStore(target, id, { cwd: "/load" });
      for (let i = 0; i < appends; i++) {
        const started = now();
        store.appendMessage({
          role: "user",
          content: `load ${id} ${i} ${"x".repeat(200)}`,
          timestamp: Date.now(),
        });
        // The header is line 1: the first append commits lines 1-2.
        appended[`${id}:${i + 2}`] = started;
        await store.flush();
        latencies.push(now() - started);
      }
      store.close();
    }
  };
  process.send({ ready: true });
  await new Promise((resolve) => process.once("message", resolve));
  const t0 = now();
  await Promise.all(Array.from({ length: concurrency }, lane));
  process.send({ done: true, latencies, appended, wallMs: now() - t0 });
  process.exit(0);
}

if (role === "follower") {
  const { schema } = JSON.parse(process.argv[3]);
  const client = new pg.Client({ connectionString: URL_ });
  await client.connect();
  const seen = new Map(); // session → lines read
  const pending = new Set();
  const arrived = {}; // `<session>:<line count>` → time the reader had the line
  let reading = false;
  const drain = async () => {
    if (reading) return;
    reading = true;
    while (pending.size > 0) {
      const [id] = pending;
      pending.delete(id);
      const from = seen.get(id) ?? 0;
      const result = await client.query(
        `SELECT seq FROM "${schema}".session_lines WHERE session_id = $1 AND seq >= $2 ORDER BY seq`,
        [id, from],
      );
      const t = now();
      for (const row of result.rows) arrived[`${id}:${row.seq + 1}`] = t;
      if (result.rows.length > 0) seen.set(id, (result.rows.at(-1).seq ?? 0) + 1);
    }
    reading = false;
  };
  client.on("notification", (message) => {
    const [s, , id] = message.payload.split(/:(\d+):/);
    if (s !== schema) return;
    pending.add(id);
    void drain();
  });
  await client.query(`LISTEN ${POSTGRES_NOTIFY_CHANNEL}`);
  process.send({ ready: true });
  await new Promise((resolve) => process.once("message", resolve));
  await new Promise((resolve) => setTimeout(resolve, 500));
  while (reading || pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  process.send({ arrived });
  await client.end();
  process.exit(0);
}

const [workers = 8, sessions = 200, appends = 10, concurrency = 4] = process.argv.slice(2).map(Number);
const schema = `load_${randomBytes(4).toString("hex")}`;
const target = { connectionString: URL_, schema };
await migratePostgres(target);
const self = fileURLToPath(import.meta.url);
const spawnRole = (name, config) => {
  const child = fork(self, [name, JSON.stringify(config)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  child.on("exit", (code) => {
    if (code !== 0) {
      console.error(`pg-load: a ${name} process failed (exit ${code})`);
      process.exit(1);
    }
  });
  const messages = [];
  const waiters = [];
  child.on("message", (message) => {
    messages.push(message);
    for (const w of waiters.splice(0)) w();
  });
  const next = async (key) => {
    for (;;) {
      const found = messages.find((m) => key in m);
      if (found) return found;
      await new Promise((resolve) => waiters.push(resolve));
    }
  };
  return { child, next };
};
try {
  const follower = spawnRole("follower", { schema });
  await follower.next("ready");
  const pool = Array.from({ length: workers }, (_, worker) =>
    spawnRole("worker", { schema, worker, sessions, appends, concurrency }),
  );
  await Promise.all(pool.map((w) => w.next("ready")));
  const t0 = now();
  for (const w of pool) w.child.send("go");
  const results = await Promise.all(pool.map((w) => w.next("done")));
  const wallMs = now() - t0;
  follower.child.send("stop");
  const { arrived } = await follower.next("arrived");
  const latencies = results.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const pct = (list, p) => list[Math.min(list.length - 1, Math.floor((p / 100) * list.length))];
  const readerDelays = [];
  let missed = 0;
  for (const r of results) {
    for (const [key, started] of Object.entries(r.appended)) {
      const at = arrived[key];
      if (at === undefined) missed++;
      else readerDelays.push(at - started);
    }
  }
  readerDelays.sort((a, b) => a - b);
  const total = latencies.length;
  console.log(
    JSON.stringify(
      {
        workers,
        sessions: workers * sessions,
        appendsPerSession: appends,
        openWritersPerWorker: concurrency,
        appends: total,
        wallSeconds: +(wallMs / 1000).toFixed(2),
        appendsPerSecond: Math.round(total / (wallMs / 1000)),
        appendToDurableMs: {
          p50: +pct(latencies, 50).toFixed(2),
          p99: +pct(latencies, 99).toFixed(2),
          max: +latencies.at(-1).toFixed(2),
        },
        appendToReaderMs: {
          p50: +pct(readerDelays, 50).toFixed(2),
          p99: +pct(readerDelays, 99).toFixed(2),
          missed,
        },
      },
      null,
      2,
    ),
  );
} finally {
  const client = new pg.Client({ connectionString: URL_ });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
}
