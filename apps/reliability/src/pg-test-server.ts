import { randomBytes } from "node:crypto";
import pg from "pg";

/** The PostgreSQL server of the tests (root README): `ARBOR_TEST_PG_URL`. */
export const TEST_PG_URL = process.env.ARBOR_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

/** `undefined` when the server answers, else the reason the database tests are skipped. */
export async function pgServerProblem(): Promise<string | undefined> {
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

/** A fresh schema name. */
export function freshSchema(prefix: string): string {
  return `t_${prefix}_${randomBytes(4).toString("hex")}`;
}

/** One statement on a short-lived connection. */
export async function pgQuery<Row extends pg.QueryResultRow = pg.QueryResultRow>(
  sql: string,
  values: unknown[] = [],
): Promise<Row[]> {
  const client = new pg.Client({ connectionString: TEST_PG_URL });
  client.on("error", () => {});
  await client.connect();
  try {
    return (await client.query<Row>(sql, values)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}
