/** An embedded PostgreSQL (PGlite) served on a loopback TCP port to the real `pg` driver. */
export interface EmbeddedPostgres {
  /** `postgresql://postgres@127.0.0.1:<port>/postgres`. */
  url: string;
  /** `PostgreSQL 18.x (PGlite 0.5.x)`. */
  version: string;
  /** Stops the socket server and closes the database. */
  close(): Promise<void>;
}

/**
 * Starts PGlite (PostgreSQL compiled to WebAssembly, in this process, in memory) behind
 * `@electric-sql/pglite-socket`, which speaks the wire protocol on 127.0.0.1 at a free port, so that
 * `pg` clients of this process and of child processes connect to it as to a server. Takes a few
 * seconds (the WebAssembly module compiles). The listening socket does not keep the process alive.
 *
 * Every connection shares PGlite's single backend: see `EMBEDDED_LIMITS` for what that rules out.
 * @throws when the PGlite packages are missing or the database cannot start.
 */
export async function startEmbeddedPostgres(): Promise<EmbeddedPostgres> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 1000 });
  server.addEventListener("listening", () => {});
  await server.start();
  // The net.Server is private; unref it so that a test file's process may end with it open.
  (server as unknown as { server?: { unref?: () => void } }).server?.unref?.();
  const port = server.getServerConn().split(":").at(-1);
  const version = (await db.query<{ v: string }>("SELECT version() AS v")).rows[0]?.v ?? "";
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    version: version.replace(/ on .*$/, ""),
    close: async () => {
      await server.stop();
      await db.close();
    },
  };
}
