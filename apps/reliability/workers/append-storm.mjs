#!/usr/bin/env node
import * as nodeFs from "node:fs";
/**
 * Child process of the SIGKILL storm (test/sigkill-storm.test.ts). Opens a session with the built
 * @arbor/session-store, prints `ready` on stdout, then appends storm messages `startSeq`,
 * `startSeq + 1`, ... as fast as it can. After each `appendMessage` returns, and before the next
 * one starts, it writes `<seq> <entry id>` to the acknowledgement file with a synchronous write, so
 * the parent knows exactly which appends returned before the kill.
 *
 *   node append-storm.mjs '{"file":"…","ackFile":"…","durability":"never","startSeq":0,
 *                           "maxAppends":2000,"selfKill":{"write":12,"fraction":0.4}}'
 *
 * Without `selfKill` the parent kills the process at a random time. With it the process kills
 * itself with SIGKILL in the middle of its `write`-th write to the session file, after handing
 * the first `fraction` (0..1) of that write's bytes to the OS: a crash inside an append, at a
 * chosen byte (at least one byte is written and at least one is not).
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { openSessionStore } from "@arbor/session-store";
import { stormMessage } from "./storm-message.mjs";

const args = JSON.parse(process.argv[2] ?? "{}");

/** `node:fs` with a `writeSync` that dies half-way through the chosen write to the session file. */
function killingFs(file, plan) {
  const sessionFds = new Set();
  let writes = 0;
  return {
    ...nodeFs,
    openSync(path, ...rest) {
      const fd = nodeFs.openSync(path, ...rest);
      if (path === file) sessionFds.add(fd);
      return fd;
    },
    closeSync(fd) {
      sessionFds.delete(fd);
      return nodeFs.closeSync(fd);
    },
    writeSync(fd, buffer, ...rest) {
      if (sessionFds.has(fd) && ++writes === plan.write) {
        // The store writes each line as a string: cut its UTF-8 bytes (a Buffer: its given range).
        const bytes = typeof buffer === "string" ? Buffer.from(buffer, "utf8") : buffer;
        const offset = typeof buffer === "string" ? 0 : (rest[0] ?? 0);
        const total = (typeof buffer === "string" ? undefined : rest[1]) ?? bytes.length - offset;
        const cut = Math.max(1, Math.min(total - 1, Math.floor(total * plan.fraction)));
        nodeFs.writeSync(fd, bytes, offset, cut);
        process.kill(process.pid, "SIGKILL");
      }
      return nodeFs.writeSync(fd, buffer, ...rest);
    },
  };
}

// The sidecar index is opt-in; the storm keeps it on, so kills also land around index writes and reuse.
const storage = { durability: args.durability, sidecarIndex: true };
if (args.selfKill) storage.fs = killingFs(args.file, args.selfKill);
const store = openSessionStore(args.file, { storage, cwd: "/storm" });
const ack = openSync(args.ackFile, "a");
writeSync(1, "ready\n");
for (let i = 0; i < args.maxAppends; i++) {
  const seq = args.startSeq + i;
  const entry = store.appendMessage(stormMessage(seq));
  writeSync(ack, `${seq} ${entry.id}\n`);
}
// Only reached when the storm ended before the kill: wait for it without appending.
closeSync(ack);
store.close();
writeSync(1, "done\n");
setInterval(() => {}, 1000);
