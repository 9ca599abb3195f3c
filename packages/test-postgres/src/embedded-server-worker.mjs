// The embedded PostgreSQL's thread (see start-embedded-postgres.ts): PGlite in memory behind the
// pglite-socket server on 127.0.0.1 at a free port. Posts { url, version } once listening, or
// { error }. On the message "stop" it closes both and exits. Its own event loop keeps serving while
// the test's thread blocks (the session store's blocking reads wait for a query on another thread).
import { parentPort } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

try {
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 1000 });
  await server.start();
  const port = server.getServerConn().split(":").at(-1);
  const version = (await db.query("SELECT version() AS v")).rows[0]?.v ?? "";
  parentPort.on("message", async (message) => {
    if (message !== "stop") return;
    await server.stop();
    await db.close();
    parentPort.postMessage({ stopped: true });
    parentPort.close();
  });
  parentPort.postMessage({
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    version: String(version).replace(/ on .*$/, ""),
  });
} catch (error) {
  parentPort.postMessage({ error: String(error?.stack ?? error) });
}
