import pg from "pg";

/**
 * Connects to `url` and runs `SELECT 1`. Resolves `undefined` when the server answers, else the
 * driver's message (never throws). Gives up after `timeoutMs` (default 3000).
 */
export async function probePostgres(url: string, timeoutMs = 3000): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("SELECT 1");
    return undefined;
  } catch (error) {
    return (error as Error).message || String(error);
  } finally {
    await client.end().catch(() => {});
  }
}
