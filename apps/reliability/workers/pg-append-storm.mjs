#!/usr/bin/env node
/**
 * Child process of the PostgreSQL fault tests (test/postgres-faults.test.ts): a writer on one
 * database session, built @arbor/session-store/postgres. Opens the session (taking its writer lock),
 * prints `ready`, then appends storm messages in batches of 1-4 and awaits `store.flush()` after each
 * batch; once a flush resolves it records every entry of the batch in `ackFile` with a synchronous
 * write ("acknowledged"). On a typed store error it prints `error <code>` and, with `reopen`, opens
 * the session again (waiting out SESSION_LOCKED) and goes on; without it, exits 3.
 * A writer that cannot get the lock prints `locked <holder pid> <holder host>` and exits 0.
 *
 *   node pg-append-storm.mjs '{"connectionString":"…","schema":"…","sessionId":"s1","ackFile":"…","tag":"A","maxAppends":2000}'
 */
import { appendFileSync } from "node:fs";
import { openPostgresSessionStore } from "@arbor/session-store/postgres";

const args = JSON.parse(process.argv[2] ?? "{}");
const target = { connectionString: args.connectionString, schema: args.schema };

async function open(retry) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await openPostgresSessionStore(target, args.sessionId, { cwd: "/storm" });
    } catch (error) {
      if (error?.code === "SESSION_LOCKED" && !retry) {
        process.stdout.write(`locked ${error.holder?.pid ?? "?"} ${error.holder?.hostname ?? "?"}\n`);
        process.exit(0);
      }
      if (!retry || attempt > 1200) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

const countMessages = (s) => s.getEntries().filter((entry) => entry.type === "message").length;
let store = await open(false);
process.stdout.write("ready\n");
// Each writer continues after what is durable (the previous writer may have been killed).
let seq = countMessages(store);
let batch = 0;
const end = seq + args.maxAppends;
while (seq < end) {
  const size = 1 + (batch++ % 4);
  const entries = [];
  try {
    for (let i = 0; i < size && seq < end; i++, seq++) {
      const text = `${args.tag}:${seq} ${"storm ".repeat(seq % 40)}é ✓ "quoted"`;
      entries.push(store.appendMessage({ role: "user", content: text, timestamp: 1_750_000_000_000 + seq }));
    }
    await store.flush();
  } catch (error) {
    if (typeof error?.code !== "string") throw error;
    process.stdout.write(`error ${error.code}\n`);
    store.close();
    if (!args.reopen) process.exit(3);
    store = await open(true);
    // Go on after what is durable: the entries of the failed batch may or may not have been written.
    seq = countMessages(store);
    continue;
  }
  appendFileSync(args.ackFile, entries.map((entry) => `${entry.id}\n`).join(""));
}
await store.flush();
store.close();
process.stdout.write("done\n");
