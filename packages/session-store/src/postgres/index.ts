/**
 * `@arbor/session-store/postgres`: sessions in PostgreSQL (many workers, one writer per session,
 * live followers). Needs the optional peer `pg`. The contract is in docs/postgres.md.
 */
export { exportPostgresSession } from "./export-postgres-session";
export type {
  FollowedLine,
  FollowPostgresSessionOptions,
  PostgresSessionFollower,
} from "./follow-postgres-session";
export { followPostgresSession } from "./follow-postgres-session";
export type { ImportPostgresSessionOptions } from "./import-postgres-session";
export { importPostgresSession } from "./import-postgres-session";
export type { PostgresSessionStorage } from "./internal/postgres-storage";
export type { PostgresSessionSummary } from "./list-postgres-sessions";
export { listPostgresSessions } from "./list-postgres-sessions";
export type { PostgresSessionStoreOptions } from "./open-postgres-session-store";
export { openPostgresSessionStore } from "./open-postgres-session-store";
export type { PostgresLocation } from "./parse-postgres-location";
export { isPostgresLocation, parsePostgresLocation } from "./parse-postgres-location";
export type { MigratePostgresResult, PostgresMigration } from "./postgres-migrations";
export { migratePostgres, POSTGRES_MIGRATIONS } from "./postgres-migrations";
export type { PostgresTarget } from "./postgres-target";
export { DEFAULT_POSTGRES_SCHEMA, POSTGRES_NOTIFY_CHANNEL } from "./postgres-target";
export type { StreamPostgresSessionOptions } from "./stream-postgres-session";
export { streamPostgresSession } from "./stream-postgres-session";
