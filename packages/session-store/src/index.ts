import { version } from "../package.json";

/** Package version of @arbor/session-store, read from its package.json when the package is built. */
export const VERSION: string = version;

export type { InMemorySessionStoreOptions } from "./create-in-memory-session-store";
export { createInMemorySessionStore } from "./create-in-memory-session-store";
export type { CreateSessionStoreOptions } from "./create-session-store";
export { createSessionStore } from "./create-session-store";
export type { SessionTreeNode, SessionTreeShapeNode } from "./internal/build-session-tree";
export type { ResolvedLabel } from "./internal/label-index";
export type { MigrateSessionEntriesResult } from "./migrations/migrate-session-entries";
export { migrateSessionEntries, readSessionVersion } from "./migrations/migrate-session-entries";
export { migrateV1ToV2 } from "./migrations/migrate-v1-to-v2";
export { migrateV2ToV3 } from "./migrations/migrate-v2-to-v3";
export type { FileSessionStoreOptions } from "./open-session-store";
export { openSessionStore } from "./open-session-store";
export { buildContextEntries, selectContextEntries } from "./projection/build-context-entries";
export { buildSessionPath } from "./projection/build-session-path";
export {
  buildSessionProjection,
  collectContextEdits,
  projectContextEntries,
} from "./projection/build-session-projection";
export { getLatestCompactionEntry } from "./projection/get-latest-compaction-entry";
export { getSessionContextSettings } from "./projection/get-session-context-settings";
export { projectContextEntry } from "./projection/project-context-entry";
export { sessionEntryToContextMessages } from "./projection/session-entry-to-context-messages";
export type {
  ProjectedSessionEntry,
  SessionContextSettings,
  SessionModelRef,
  SessionProjection,
} from "./projection/session-projection";
export type {
  BranchSummaryEntry,
  CompactionEntry,
  ContextEditEntry,
  ContextEditReplacement,
  CustomEntry,
  CustomMessageEntry,
  FileEntry,
  LabelEntry,
  ModelChangeEntry,
  SessionEntry,
  SessionEntryBase,
  SessionHeader,
  SessionInfoEntry,
  SessionMessageEntry,
  ThinkingLevelChangeEntry,
  UnknownEntry,
  UsageEntry,
} from "./session-entry";
export { CURRENT_SESSION_VERSION, isUnknownEntry, SESSION_ENTRY_TYPES } from "./session-entry";
export type { SessionIssue } from "./session-issue";
export { SessionStore } from "./session-store";
export type {
  ContextEditRejection,
  SessionErrorLocation,
  SessionStoreErrorCode,
} from "./session-store-error";
export { SessionStoreError } from "./session-store-error";
export type {
  AppendCompactionInput,
  BranchSummaryInput,
  CustomMessageInput,
  UsageInput,
} from "./session-store-inputs";
export type { SessionTreeLinks } from "./session-tree-links";
export { createJsonlStorage } from "./storage/create-jsonl-storage";
export type { MemorySessionStorage, MemoryStorageOptions } from "./storage/create-memory-storage";
export { createMemoryStorage } from "./storage/create-memory-storage";
export type {
  DurabilityMode,
  JsonlSessionStorage,
  JsonlStorageOptions,
  JsonlStorageStats,
} from "./storage/jsonl-storage-options";
export type {
  SessionStorage,
  StorageLoadIssue,
  StorageLoadResult,
  StoredEntryRecord,
} from "./storage/session-storage";
export type {
  SessionFileChange,
  SessionLockHolder,
  SessionStorageErrorCode,
  SessionStorageErrorFields,
} from "./storage/session-storage-error";
export { SessionStorageError } from "./storage/session-storage-error";
