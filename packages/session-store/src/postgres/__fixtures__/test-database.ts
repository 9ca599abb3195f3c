/**
 * The PostgreSQL server of the tests: `ARBOR_TEST_PG_URL`, default the local server
 * (`postgresql://postgres@127.0.0.1:5432/test`). Each test file works in a schema of its own, dropped
 * afterwards. When no server answers, the PostgreSQL tests are skipped with the reason.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import type { PostgresTarget } from "../postgres-target";

export const TEST_PG_URL = process.env.ARBOR_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

/** `undefined` when the server answers, else why it does not (the skip reason). */
export async function testServerProblem(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: TEST_PG_URL, connectionTimeoutMillis: 3000 });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("SELECT 1");
    return undefined;
  } catch (error) {
    return `no PostgreSQL at ${TEST_PG_URL} (${(error as Error).message}): set ARBOR_TEST_PG_URL or start the server`;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A fresh schema name for one test file. */
export function testTarget(prefix: string): PostgresTarget {
  return { connectionString: TEST_PG_URL, schema: `t_${prefix}_${randomBytes(4).toString("hex")}` };
}

/** Runs one statement on a short-lived connection (test setup, assertions, faults). */
export async function adminQuery<Row extends pg.QueryResultRow = pg.QueryResultRow>(
  sql: string,
  values: unknown[] = [],
): Promise<Row[]> {
  const client = new pg.Client({ connectionString: TEST_PG_URL });
  client.on("error", () => {});
  await client.connect();
  try {
    return (await client.query<Row>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** Drops the schema of `target` and everything in it. */
export async function dropTarget(target: PostgresTarget): Promise<void> {
  await adminQuery(`DROP SCHEMA IF EXISTS "${target.schema}" CASCADE`);
}
