import { createJsonlStorage } from "./storage/create-jsonl-storage";
import { createMemoryStorage } from "./storage/create-memory-storage";
import type { JsonlStorageOptions } from "./storage/jsonl-storage-options";
import type { SessionStorage } from "./storage/session-storage";

/**
 * The backend factory the store factories install for sessions made from a store (fork, clone,
 * copy): a JSONL file with `storageOptions` for a path, memory otherwise.
 */
export function defaultCreateStorage(
  storageOptions: JsonlStorageOptions = {},
): (path: string | undefined) => SessionStorage {
  return (path) => (path === undefined ? createMemoryStorage() : createJsonlStorage(path, storageOptions));
}
