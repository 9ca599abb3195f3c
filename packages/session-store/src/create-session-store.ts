import { join } from "node:path";
import { defaultCreateStorage } from "./default-create-storage";
import { createSessionHeader } from "./internal/create-session-header";
import { sessionFileName } from "./internal/resolve-session-target";
import type { FileSessionStoreOptions } from "./open-session-store";
import { SessionStore } from "./session-store";
import { SessionStoreError } from "./session-store-error";
import { createJsonlStorage } from "./storage/create-jsonl-storage";

/** Options of {@link createSessionStore}: where the new file goes (`dir` or `path`). */
export interface CreateSessionStoreOptions extends FileSessionStoreOptions {
  /** Directory of the new file, named `<ISO time with - for : and .>_<session id>.jsonl` (pi's naming). */
  dir?: string;
  /** Exact path of the new file (overrides `dir`). */
  path?: string;
}

/**
 * Creates a new session file (JSONL backend) with a fresh header: version 3, a UUIDv7 id (or
 * `sessionId`), `cwd`, optional `parentSession`. The file is written with the first append (or, with
 * `deferFileUntilConversation`, with the first user or assistant message).
 *
 * @throws SessionStoreError `SESSION_TARGET_INVALID` without `dir`/`path` or when the file already
 *   holds a session; `SESSION_ID_INVALID`; `SessionStorageError` from the backend.
 * @example
 * const store = createSessionStore({ cwd: process.cwd(), dir: "/tmp/sessions" });
 * store.appendMessage({ role: "user", content: "hello", timestamp: Date.now() });
 */
export function createSessionStore(options: CreateSessionStoreOptions): SessionStore {
  const header = createSessionHeader(options);
  const path =
    options.path ?? (options.dir !== undefined ? join(options.dir, sessionFileName(header)) : undefined);
  if (path === undefined) {
    throw new SessionStoreError("SESSION_TARGET_INVALID", "createSessionStore needs `dir` or `path`");
  }
  const storage = createJsonlStorage(path, options.storage);
  let store: SessionStore;
  try {
    store = new SessionStore(
      storage,
      { ...options, createStorage: options.createStorage ?? defaultCreateStorage(options.storage) },
      header,
    );
  } catch (error) {
    storage.close();
    throw error;
  }
  if (store.header !== header) {
    store.close();
    throw new SessionStoreError("SESSION_TARGET_INVALID", "A session file already exists at this path", {
      sessionFile: path,
    });
  }
  return store;
}
