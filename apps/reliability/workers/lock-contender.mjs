#!/usr/bin/env node
/**
 * Child process of the lock contention test (test/lock-contention.test.ts). Tries to open the
 * session for writing with the built @arbor/session-store:
 * - when another writer holds it, prints `locked <holder pid> <error code>` and exits 0;
 * - otherwise appends `appends` messages tagged `tag` right away (racing the other contender),
 *   prints `appended <first id> <last id>`, then keeps the session open until a line `close`
 *   arrives on stdin, closes it, prints `closed` and exits.
 *
 *   node lock-contender.mjs '{"file":"…","tag":"A3","appends":200}'
 */
import { createInterface } from "node:readline";
import { openSessionStore } from "@arbor/session-store";

const args = JSON.parse(process.argv[2] ?? "{}");
let store;
try {
  store = openSessionStore(args.file, { cwd: "/contention", storage: { durability: "never" } });
} catch (error) {
  if (error?.code === "SESSION_LOCKED") {
    process.stdout.write(`locked ${error.holder?.pid ?? "?"} ${error.code}\n`);
    process.exit(0);
  }
  throw error;
}
let first;
let last;
for (let i = 0; i < args.appends; i++) {
  const text = `${args.tag}:${i} ${"payload ".repeat(i % 50)}`;
  const entry = store.appendMessage({ role: "user", content: text, timestamp: 1_750_000_000_000 + i });
  first ??= entry.id;
  last = entry.id;
}
process.stdout.write(`appended ${first} ${last}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  if (line === "close") break;
}
store.close();
process.stdout.write("closed\n");
