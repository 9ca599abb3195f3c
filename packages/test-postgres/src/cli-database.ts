import type { TestPostgres } from "./test-postgres";

/** A schema of its own for a test file that drives the CLI, as {@link cliDatabase} returns it. */
export interface CliDatabase {
  /** The database URL without credentials, with `?schema=<schema>` (append `#<session id>`). */
  url: string;
  schema: string;
  /** The credentials as `PGUSER` / `PGPASSWORD`, for the CLI process's environment. */
  env: Record<string, string>;
  /** Drops the schema. */
  drop(): Promise<void>;
}

/**
 * A fresh schema on `db` for CLI tests: the location URL carries no password (as a user would type
 * it), the credentials travel in the environment.
 */
export function cliDatabase(db: TestPostgres, prefix: string): CliDatabase {
  const { connectionString, schema } = db.target(prefix);
  const env: Record<string, string> = {};
  if (connectionString === "") return { url: "", schema, env, drop: async () => {} };
  const parsed = new URL(connectionString);
  if (parsed.username) env.PGUSER = decodeURIComponent(parsed.username);
  if (parsed.password) env.PGPASSWORD = decodeURIComponent(parsed.password);
  parsed.username = "";
  parsed.password = "";
  parsed.searchParams.set("schema", schema);
  return { url: parsed.toString(), schema, env, drop: () => db.dropSchema(schema) };
}
