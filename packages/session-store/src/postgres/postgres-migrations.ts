import { SessionStorageError } from "../storage/session-storage-error";
import { connectClient, schemaOf } from "./internal/pg-connect";
import type { PostgresTarget } from "./postgres-target";

/** One versioned step of the schema. `sql` uses `{{schema}}` for the quoted schema name. */
export interface PostgresMigration {
  /** Applied in increasing order; recorded in `<schema>.schema_migrations`. */
  version: number;
  /** What the step does. */
  description: string;
  /** The statements (one transaction). */
  sql: string;
}

/** The migrations this version of the package ships, oldest first. Never edited once released. */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    description: "sessions, their lines in file order, backups of migration rewrites",
    sql: `
CREATE TABLE {{schema}}.sessions (
  id text PRIMARY KEY,
  lock_key integer GENERATED ALWAYS AS IDENTITY UNIQUE,
  cwd text,
  version integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  line_count integer NOT NULL DEFAULT 0,
  ends_with_newline boolean NOT NULL DEFAULT true,
  writer jsonb
);
CREATE TABLE {{schema}}.session_lines (
  session_id text NOT NULL REFERENCES {{schema}}.sessions (id) ON DELETE CASCADE,
  seq integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('header', 'entry', 'entry-without-parent', 'other')),
  entry_id text,
  parent_id text,
  type text,
  role text,
  line text NOT NULL,
  PRIMARY KEY (session_id, seq)
);
CREATE INDEX session_lines_type ON {{schema}}.session_lines (session_id, type) WHERE type = 'session_info';
CREATE TABLE {{schema}}.session_backups (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  session_id text NOT NULL,
  taken_at timestamptz NOT NULL DEFAULT now(),
  content text NOT NULL
);`,
  },
];

/** What {@link migratePostgres} did. */
export interface MigratePostgresResult {
  /** Versions applied by this call (empty when the schema was up to date). */
  applied: number[];
  /** The schema's version now. */
  version: number;
}

/**
 * Creates the schema of `target` (default `arbor`) and applies every shipped migration not applied
 * yet, each in its own transaction. Idempotent; concurrent calls (every worker at start) are
 * serialized by a transaction-level advisory lock, so each step runs once.
 *
 * @throws SessionStorageError `SESSION_TARGET_INVALID` (schema name), `SESSION_READ_FAILED` (no
 *   server, no `pg`), `SESSION_WRITE_FAILED` when a step fails (that step is rolled back).
 * @example
 * await migratePostgres({ connectionString: "postgresql://127.0.0.1/app" });
 */
export async function migratePostgres(target: PostgresTarget): Promise<MigratePostgresResult> {
  const schema = schemaOf(target);
  const client = await connectClient(target, "migrate");
  const applied: number[] = [];
  try {
    let version = 0;
    for (const migration of POSTGRES_MIGRATIONS) {
      await client.query("BEGIN");
      try {
        await client.query("SELECT pg_advisory_xact_lock(hashtext($1), 0)", [`arbor-migrate:${schema.name}`]);
        await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema.sql}`);
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${schema.sql}.schema_migrations (version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
        );
        const done = await client.query(`SELECT 1 FROM ${schema.sql}.schema_migrations WHERE version = $1`, [
          migration.version,
        ]);
        if (done.rowCount === 0) {
          await client.query(migration.sql.replaceAll("{{schema}}", schema.sql));
          await client.query(
            `INSERT INTO ${schema.sql}.schema_migrations (version, description) VALUES ($1, $2)`,
            [migration.version, migration.description],
          );
          applied.push(migration.version);
        }
        await client.query("COMMIT");
        version = migration.version;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw new SessionStorageError(
          "SESSION_WRITE_FAILED",
          `Migration ${migration.version} of schema ${schema.name} failed: ${(error as Error).message}`,
          { cause: error },
        );
      }
    }
    return { applied, version };
  } finally {
    await client.end().catch(() => {});
  }
}
