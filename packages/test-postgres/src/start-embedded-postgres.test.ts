import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "./start-embedded-postgres";

/**
 * The embedded PostgreSQL through the real driver, and the limits that decide which tests skip on
 * it (EMBEDDED_LIMITS). Should a PGlite release lift one, its test here fails: shrink the list.
 */
let embedded: EmbeddedPostgres;
const clients: pg.Client[] = [];

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: embedded.url });
  await client.connect();
  clients.push(client);
  return client;
}

describe("startEmbeddedPostgres", () => {
  beforeAll(async () => {
    embedded = await startEmbeddedPostgres();
  }, 60_000);
  afterAll(async () => {
    for (const client of clients) await client.end().catch(() => {});
    await embedded?.close();
  });

  it("serves SQL to the pg driver on a loopback port", async () => {
    expect(embedded.url).toMatch(/^postgresql:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
    expect(embedded.version).toMatch(/^PostgreSQL \d+/);
    const client = await connect();
    await client.query("CREATE SCHEMA probe; CREATE TABLE probe.t (id int primary key, line text)");
    await client.query("INSERT INTO probe.t VALUES ($1, $2)", [1, '{"a":1}']);
    expect((await client.query("SELECT line FROM probe.t")).rows).toEqual([{ line: '{"a":1}' }]);
  });

  it("lacks separate backends: two connections share one backend, and an advisory lock does not exclude", async () => {
    const [a, b] = [await connect(), await connect()];
    const pid = async (client: pg.Client) => (await client.query("SELECT pg_backend_pid() AS p")).rows[0].p;
    expect(await pid(a)).toBe(await pid(b));
    const take = async (client: pg.Client) =>
      (await client.query("SELECT pg_try_advisory_lock(16, 16) AS ok")).rows[0].ok;
    expect([await take(a), await take(b)]).toEqual([true, true]);
  });

  it("lacks LISTEN/NOTIFY across connections: the listener hears nothing", async () => {
    const [listener, notifier] = [await connect(), await connect()];
    const heard: string[] = [];
    listener.on("notification", (message) => heard.push(String(message.payload)));
    await listener.query("LISTEN arbor_probe");
    await notifier.query("SELECT pg_notify('arbor_probe', 'hello')");
    await new Promise((resolve) => setTimeout(resolve, 200));
    await listener.query("SELECT 1");
    expect(heard).toEqual([]);
  });
});
