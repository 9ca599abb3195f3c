import { randomBytes } from "node:crypto";
import pg from "pg";

/** The PostgreSQL server of the tests (see the root README): `ARBOR_TEST_PG_URL`. */
export const TEST_PG_URL = process.env.ARBOR_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

/** `undefined` when the server answers, else why not (the reason the database tests are skipped). */
export async function testServerProblem(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: TEST_PG_URL, connectionTimeoutMillis: 3000 });
  client.on("error", () => {});
  try {
    await client.connect();
    return undefined;
  } catch (error) {
    return `no PostgreSQL at ARBOR_TEST_PG_URL (${(error as Error).message})`;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * A schema of its own for one test file: the database URL without credentials and with
 * `?schema=`, the credentials as `PGUSER` / `PGPASSWORD` for the CLI's environment, and `drop`.
 */
export function testDatabase(prefix: string): {
  url: string;
  schema: string;
  env: Record<string, string>;
  drop: () => Promise<void>;
} {
  const schema = `t_${prefix}_${randomBytes(4).toString("hex")}`;
  const parsed = new URL(TEST_PG_URL);
  const env: Record<string, string> = {};
  if (parsed.username) env.PGUSER = decodeURIComponent(parsed.username);
  if (parsed.password) env.PGPASSWORD = decodeURIComponent(parsed.password);
  parsed.username = "";
  parsed.password = "";
  parsed.searchParams.set("schema", schema);
  return {
    url: parsed.toString(),
    schema,
    env,
    drop: async () => {
      const client = new pg.Client({ connectionString: TEST_PG_URL });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
