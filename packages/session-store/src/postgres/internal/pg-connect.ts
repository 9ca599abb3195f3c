import { hostname, userInfo } from "node:os";
import type { Client, ClientConfig } from "pg";
import { SessionStorageError } from "../../storage/session-storage-error";
import { DEFAULT_POSTGRES_SCHEMA, type PostgresTarget } from "../postgres-target";

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The schema of `target`, checked, as a quoted SQL identifier and as its plain name. */
export function schemaOf(target: PostgresTarget): { name: string; sql: string } {
  const name = target.schema ?? DEFAULT_POSTGRES_SCHEMA;
  if (!SCHEMA_NAME.test(name)) {
    throw new SessionStorageError(
      "SESSION_TARGET_INVALID",
      `PostgreSQL schema ${JSON.stringify(name)} is not a plain lower-case identifier (letters, digits, _; at most 63).`,
    );
  }
  return { name, sql: `"${name}"` };
}

/** The connection string without its password, for messages. */
export function describeServer(target: PostgresTarget): string {
  try {
    const url = new URL(target.connectionString);
    url.password = "";
    url.search = "";
    return url.toString().replace(/\/$/, "");
  } catch {
    return "postgresql://(unparsable connection string)";
  }
}

/** `postgresql://host/db#<id>` (no password), the name of a session in messages. */
export function describeSession(target: PostgresTarget, sessionId: string): string {
  const schema = target.schema ?? DEFAULT_POSTGRES_SCHEMA;
  const server = describeServer(target);
  return `${server}${schema === DEFAULT_POSTGRES_SCHEMA ? "" : `?schema=${schema}`}#${sessionId}`;
}

/**
 * Loads `pg` (an optional peer dependency) and connects a new client. The caller ends it.
 *
 * @throws SessionStorageError `SESSION_READ_FAILED` when `pg` is not installed or the server cannot
 *   be reached (the message names the server, never the password).
 */
export async function connectClient(target: PostgresTarget, role: string): Promise<Client> {
  let pg: typeof import("pg");
  try {
    pg = (await import("pg")).default as typeof import("pg");
  } catch (error) {
    throw new SessionStorageError(
      "SESSION_READ_FAILED",
      "The PostgreSQL backend needs the `pg` package (an optional peer dependency): install pg 8.",
      { cause: error },
    );
  }
  const client = new pg.Client(clientConfigOf(target, role));
  // A connection error with no query running would otherwise be an unhandled 'error' event.
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw new SessionStorageError(
      "SESSION_READ_FAILED",
      `Cannot connect to ${describeServer(target)}: ${(error as Error).message}`,
      { cause: error, path: describeServer(target) },
    );
  }
  return client;
}

/** The `pg` client configuration of `target` for a connection doing `role` (named in `pg_stat_activity`). */
export function clientConfigOf(target: PostgresTarget, role: string): ClientConfig {
  return {
    ...target.clientConfig,
    connectionString: withDefaultUser(target.connectionString),
    application_name: `arbor-${role} ${hostname()} pid ${process.pid}`.slice(0, 63),
    keepAlive: true,
  };
}

/**
 * A URL without a user name gets libpq's default: `PGUSER`, else the operating-system user (`pg`
 * reads `$USER`, which a service or container often lacks).
 */
function withDefaultUser(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.username !== "") return connectionString;
    url.username = encodeURIComponent(process.env.PGUSER || process.env.USER || userInfo().username);
    return url.toString();
  } catch {
    return connectionString;
  }
}

/** A failed query while opening, as a typed error. */
export function readFailed(location: string, error: unknown): SessionStorageError {
  const missing =
    (error as { code?: string }).code === "42P01" || (error as { code?: string }).code === "3F000";
  return new SessionStorageError(
    "SESSION_READ_FAILED",
    `${location}: ${(error as Error).message}${missing ? " (run migratePostgres first, or `arbor import` which migrates)" : ""}`,
    { path: location, cause: error },
  );
}
