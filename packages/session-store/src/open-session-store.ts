import { defaultCreateStorage } from "./default-create-storage";
import { SessionStore } from "./session-store";
import type { SessionStoreOptions } from "./session-store-options";
import { createJsonlStorage } from "./storage/create-jsonl-storage";
import type { JsonlStorageOptions } from "./storage/jsonl-storage-options";

/** Options of {@link openSessionStore} and {@link createSessionStore}. */
export interface FileSessionStoreOptions extends SessionStoreOptions {
  /** Options of the JSONL backend (durability, read-only, sidecar index). */
  storage?: JsonlStorageOptions;
}

/**
 * Opens the session file at `path` (pi or Arbor, versions 1-3) with the JSONL backend, taking its
 * writer lock. A missing file is a new session that will be created at that path by the first append
 * (its header from `options`). Opening reads light records only; entries are read when needed.
 * Older versions are migrated in memory; the file is rewritten (original kept as a backup) on the
 * first append or {@link SessionStore.persistMigration}.
 *
 * @throws SessionStoreError `SESSION_HEADER_INVALID`; `SessionStorageError` (locked, unreadable, ...).
 * @example
 * const store = openSessionStore("/home/me/.pi/agent/sessions/--work--/2024-...jsonl");
 * const { messages, model } = store.getProjection();
 * store.close();
 */
export function openSessionStore(path: string, options: FileSessionStoreOptions = {}): SessionStore {
  const storage = createJsonlStorage(path, options.storage);
  try {
    return new SessionStore(storage, {
      ...options,
      createStorage: options.createStorage ?? defaultCreateStorage(options.storage),
    });
  } catch (error) {
    storage.close();
    throw error;
  }
}
