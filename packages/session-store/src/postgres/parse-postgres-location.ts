import { SessionStorageError } from "../storage/session-storage-error";
import type { PostgresTarget } from "./postgres-target";

/** A session location in PostgreSQL: the target and (when the URL has a fragment) the session id. */
export interface PostgresLocation {
  target: PostgresTarget;
  /** The fragment (`#<session-id>`), `undefined` when there is none. */
  sessionId: string | undefined;
}

/** Whether `location` is a PostgreSQL URL (`postgresql://` or `postgres://`) rather than a file path. */
export function isPostgresLocation(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/**
 * Parses `postgresql://[user[:password]@]host[:port]/database[?schema=name&...]#<session-id>`: the
 * fragment is the session id, the `schema` query parameter the schema (default `arbor`); every
 * other part is handed to the driver unchanged.
 *
 * @throws SessionStorageError `SESSION_TARGET_INVALID` for anything that is not such a URL.
 * @example
 * parsePostgresLocation("postgresql://127.0.0.1/test#0192f...") // { target, sessionId: "0192f..." }
 */
export function parsePostgresLocation(location: string): PostgresLocation {
  let url: URL;
  try {
    if (!isPostgresLocation(location)) throw new Error("not a postgresql:// URL");
    url = new URL(location);
  } catch (error) {
    throw new SessionStorageError(
      "SESSION_TARGET_INVALID",
      `${JSON.stringify(location)} is not a PostgreSQL session location (postgresql://host/database#<session-id>): ${(error as Error).message}`,
      { cause: error },
    );
  }
  const fragment = decodeURIComponent(url.hash.replace(/^#/, ""));
  const schema = url.searchParams.get("schema") ?? undefined;
  url.searchParams.delete("schema");
  url.hash = "";
  return {
    target: { connectionString: url.toString(), ...(schema !== undefined ? { schema } : {}) },
    sessionId: fragment === "" ? undefined : fragment,
  };
}
