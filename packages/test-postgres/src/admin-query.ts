import pg from "pg";

/**
 * Runs one statement on a short-lived connection to `url` (test setup, assertions, faults) and
 * returns its rows. Throws the driver's error.
 */
export async function adminQuery<Row extends pg.QueryResultRow = pg.QueryResultRow>(
  url: string,
  sql: string,
  values: unknown[] = [],
): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => {});
  await client.connect();
  try {
    return (await client.query<Row>(sql, values)).rows;
  } finally {
    await client.end().catch(() => {});
  }
}
