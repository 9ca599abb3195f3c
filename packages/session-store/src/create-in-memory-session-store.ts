import { defaultCreateStorage } from "./default-create-storage";
import { createSessionHeader } from "./internal/create-session-header";
import type { FileEntry } from "./session-entry";
import { SessionStore } from "./session-store";
import type { SessionStoreOptions } from "./session-store-options";
import { createMemoryStorage } from "./storage/create-memory-storage";

/** Options of {@link createInMemorySessionStore}. */
export interface InMemorySessionStoreOptions extends SessionStoreOptions {
  /**
   * Initial content: a whole session file's entries (header first), or entries without a header
   * (a new header is made from the options). Versions 1 and 2 are migrated in memory.
   */
  entries?: readonly FileEntry[] | readonly Record<string, unknown>[];
  /** Initial content as JSONL text (overrides `entries`); corrupt lines become issues. */
  content?: string;
}

/**
 * Creates a session that lives in memory (the in-memory backend): nothing is written to disk, forks
 * and clones stay in memory too. Useful for tests, previews and as pi's `SessionManager.inMemory`.
 *
 * @throws SessionStoreError `SESSION_HEADER_INVALID`, `SESSION_ID_INVALID`.
 * @example
 * const store = createInMemorySessionStore({ content: readFileSync("session.jsonl", "utf8") });
 * console.log(store.getProjection().messages.length);
 */
export function createInMemorySessionStore(options: InMemorySessionStoreOptions = {}): SessionStore {
  const createStorage = options.createStorage ?? defaultCreateStorage();
  if (options.content !== undefined) {
    return new SessionStore(createMemoryStorage({ content: options.content }), { ...options, createStorage });
  }
  const entries = (options.entries ?? []) as readonly Record<string, unknown>[];
  const first = entries[0];
  const hasHeader = first !== undefined && first.type === "session";
  const storage = hasHeader
    ? createMemoryStorage({ header: first, entries: entries.slice(1) })
    : entries.length > 0
      ? createMemoryStorage({
          header: createSessionHeader(options) as unknown as Record<string, unknown>,
          entries,
        })
      : createMemoryStorage();
  return new SessionStore(storage, { ...options, createStorage });
}
