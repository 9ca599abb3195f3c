import { Worker } from "node:worker_threads";

/** An embedded PostgreSQL (PGlite) served on a loopback TCP port to the real `pg` driver. */
export interface EmbeddedPostgres {
  /** `postgresql://postgres@127.0.0.1:<port>/postgres`. */
  url: string;
  /** `PostgreSQL 18.x (PGlite 0.5.x)`. */
  version: string;
  /** Stops the socket server, closes the database and ends its thread. */
  close(): Promise<void>;
}

/**
 * Starts PGlite (PostgreSQL compiled to WebAssembly, in memory) behind `@electric-sql/pglite-socket`,
 * which speaks the wire protocol on 127.0.0.1 at a free port, so that `pg` clients of this process
 * and of child processes connect to it as to a server. It runs on a worker thread of its own, so it
 * keeps answering while this thread blocks (the PostgreSQL backend's blocking reads wait for a query
 * made from another thread). Takes a few seconds (the WebAssembly module compiles). The thread does
 * not keep the process alive.
 *
 * Every connection shares PGlite's single backend: see `EMBEDDED_LIMITS` for what that rules out.
 * @throws when the PGlite packages are missing or the database cannot start.
 */
export async function startEmbeddedPostgres(): Promise<EmbeddedPostgres> {
  const worker = new Worker(new URL("./embedded-server-worker.mjs", import.meta.url));
  const started = await new Promise<{ url?: string; version?: string; error?: string }>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the embedded PostgreSQL thread exited (${code})`)));
  });
  if (started.url === undefined) {
    await worker.terminate();
    throw new Error(started.error ?? "the embedded PostgreSQL did not start");
  }
  worker.unref();
  return {
    url: started.url,
    version: started.version ?? "",
    close: async () => {
      const stopped = new Promise((resolve) => worker.once("message", resolve));
      worker.postMessage("stop");
      await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 5000))]);
      await worker.terminate();
    },
  };
}
