import { SessionStorageError } from "../storage/session-storage-error";
import { connectClient, describeSession, schemaOf } from "./internal/pg-connect";
import { readSessionText } from "./internal/read-session-text";
import type { PostgresTarget } from "./postgres-target";

/**
 * The committed text of a session as a JSONL file holds it: the exact bytes imported or written, in
 * file order. Reads with one query; never changes anything.
 *
 * @throws SessionStorageError `SESSION_NOT_FOUND`, `SESSION_READ_FAILED`.
 * @example
 * writeFileSync("copy.jsonl", await exportPostgresSession(target, id));
 */
export async function exportPostgresSession(target: PostgresTarget, sessionId: string): Promise<string> {
  const schema = schemaOf(target);
  const location = describeSession(target, sessionId);
  const client = await connectClient(target, "export");
  try {
    const text = await readSessionText(client, schema, sessionId, location);
    if (text === undefined) {
      throw new SessionStorageError("SESSION_NOT_FOUND", `${location}: no such session.`, { path: location });
    }
    return text;
  } finally {
    await client.end().catch(() => {});
  }
}
