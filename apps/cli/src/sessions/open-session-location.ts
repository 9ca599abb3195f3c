import type { SessionStore } from "@arbor/session-store";
import { isDatabaseLocation } from "./is-database-location";
import { openSessionFile, type RawSessionHeader, refuseDamagedSession } from "./open-session-file";

/**
 * {@link openSessionFile} for a session file, or the session at a PostgreSQL location
 * (`postgresql://host/db#<session-id>`, opened without the lock when `readOnly`), with the same
 * refusal of a damaged session. The database backend is loaded only for a database location.
 *
 * @throws like `openSessionFile` and `openDatabaseSession`.
 */
export async function openSessionLocation(
  location: string,
  options: { readOnly: boolean; arborHome: string; validate?: "full" | "lazy" },
): Promise<{ store: SessionStore; rawHeader: RawSessionHeader }> {
  if (!isDatabaseLocation(location)) return openSessionFile(location, options);
  const { openDatabaseSession } = await import("./open-database-session");
  const opened = await openDatabaseSession(location, {
    mode: options.readOnly ? "read" : "write",
    validate: options.validate ?? "full",
  });
  refuseDamagedSession(opened.store);
  return opened;
}
