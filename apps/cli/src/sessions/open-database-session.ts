import type { SessionIssue, SessionStore } from "@arbor/session-store";
import type { PostgresSessionStorage } from "@arbor/session-store/postgres";
import { CliError } from "../cli-error";
import type { RawSessionHeader } from "./open-session-file";

/**
 * Opens the session at a PostgreSQL location (`postgresql://host/db[?schema=s]#<session-id>`):
 * `read` opens without the writer lock (inspect, tree, export), `write` takes it (compact, the agent).
 * Loads `@arbor/session-store/postgres` (and the `pg` driver) only here.
 *
 * @throws CliError `CLI_USAGE` for a location without `#<session-id>`; session-store errors
 *   (`SESSION_NOT_FOUND`, `SESSION_LOCKED`, `SESSION_READ_FAILED`) with their own messages.
 */
export async function openDatabaseSession(
  location: string,
  options: {
    mode: "read" | "write";
    validate?: "full" | "lazy";
    cwd?: string;
    deferFileUntilConversation?: boolean;
    onIssue?: (issue: SessionIssue) => void;
  },
): Promise<{ store: SessionStore; rawHeader: RawSessionHeader }> {
  const { openPostgresSessionStore, parsePostgresLocation } = await import("@arbor/session-store/postgres");
  const { target, sessionId } = parsePostgresLocation(location);
  if (sessionId === undefined) {
    throw new CliError(
      "CLI_USAGE",
      `${location}: no session id: a database session is postgresql://host/database#<session-id> (arbor sessions --store ${location} lists them)`,
    );
  }
  const store = await openPostgresSessionStore(target, sessionId, {
    mode: options.mode,
    validate: options.validate ?? "full",
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    ...(options.deferFileUntilConversation ? { deferFileUntilConversation: true } : {}),
    ...(options.onIssue ? { onIssue: options.onIssue } : {}),
  });
  const stored = (store.storage as PostgresSessionStorage).storedHeader;
  const header = stored ?? (store.header as unknown as Record<string, unknown>);
  return { store, rawHeader: { id: header.id, version: header.version, cwd: header.cwd } };
}
