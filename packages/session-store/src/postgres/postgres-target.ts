import type { ClientConfig } from "pg";

/**
 * Where sessions live in PostgreSQL: a server (`connectionString`, plus any `pg` client options) and
 * a schema (default `arbor`) holding the tables that {@link migratePostgres} creates.
 */
export interface PostgresTarget {
  /** `postgresql://user:password@host:port/database` (any form `pg` accepts). */
  connectionString: string;
  /** Schema of the session tables: lower-case letters, digits and `_`, at most 63. Default `arbor`. */
  schema?: string;
  /** More options of the `pg` client (TLS, timeouts). `connectionString` wins over their `host`. */
  clientConfig?: Omit<ClientConfig, "connectionString">;
}

/** The default schema of the session tables. */
export const DEFAULT_POSTGRES_SCHEMA = "arbor";

/** The channel every write transaction notifies (payload: `<schema>:<line count>:<session id>`). */
export const POSTGRES_NOTIFY_CHANNEL = "arbor_session_lines";
