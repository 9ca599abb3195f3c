export { adminQuery } from "./admin-query";
export { type CliDatabase, cliDatabase } from "./cli-database";
export { probePostgres } from "./probe-postgres";
export {
  DEFAULT_TEST_PG_URL,
  EMBEDDED_LIMITS,
  type PostgresFeature,
  type ResolveDeps,
  resolveTestPostgres,
  type TestPostgresChoice,
  withoutPassword,
} from "./resolve-test-postgres";
export { type EmbeddedPostgres, startEmbeddedPostgres } from "./start-embedded-postgres";
export { startLocalCluster } from "./start-local-cluster";
export { type TestPostgres, testPostgres } from "./test-postgres";
