import { randomBytes } from "node:crypto";
import type pg from "pg";
import { adminQuery } from "./admin-query";
import { probePostgres } from "./probe-postgres";
import {
  EMBEDDED_LIMITS,
  type PostgresFeature,
  resolveTestPostgres,
  type TestPostgresChoice,
} from "./resolve-test-postgres";
import { startEmbeddedPostgres } from "./start-embedded-postgres";
import { startLocalCluster } from "./start-local-cluster";

/** The PostgreSQL of one test file: where it is, what it cannot do, and the helpers bound to it. */
export interface TestPostgres {
  /** `server` (a real server), `embedded` (PGlite in this process) or `none` (every test skips). */
  readonly kind: TestPostgresChoice["kind"];
  /** Connection string, credentials included; `""` when `kind` is `none`. */
  readonly url: string;
  /** One line on what was picked and why (or why nothing could be). */
  readonly note: string;
  /**
   * `undefined` when a test needing `features` can run here, else why not: the text to put in the
   * skipped test's name (`it.skipIf(reason !== undefined)`).
   */
  skipReason(...features: PostgresFeature[]): string | undefined;
  /** A target in a fresh schema `t_<prefix>_<random>` (not created: migrate it). */
  target(prefix: string): { connectionString: string; schema: string };
  /** One statement on a short-lived connection; returns its rows. */
  query<Row extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<Row[]>;
  /** Drops a schema and everything in it. */
  dropSchema(schema: string): Promise<void>;
}

const CACHE = Symbol.for("arbor.test-postgres");

/**
 * The PostgreSQL of the tests (see {@link resolveTestPostgres} for the order: `ARBOR_TEST_PG=embedded`,
 * `ARBOR_TEST_PG_URL` or the local server, the local cluster started, an embedded PGlite), resolved
 * once per process and announced on stderr. Never throws: when nothing is available, `kind` is
 * `none` and `skipReason()` says why.
 */
export function testPostgres(): Promise<TestPostgres> {
  const cache = globalThis as { [CACHE]?: Promise<TestPostgres> };
  cache[CACHE] ??= resolveTestPostgres({
    env: process.env,
    probe: (url) => probePostgres(url),
    startCluster: startLocalCluster,
    startEmbedded: startEmbeddedPostgres,
  }).then((choice) => {
    const found = bind(choice);
    process.stderr.write(`[test-postgres] ${found.note}\n`);
    return found;
  });
  return cache[CACHE];
}

function bind(choice: TestPostgresChoice): TestPostgres {
  const url = choice.kind === "none" ? "" : choice.url;
  return {
    kind: choice.kind,
    url,
    note:
      choice.kind === "none"
        ? `PostgreSQL tests skipped: ${choice.problem}`
        : choice.kind === "embedded"
          ? `${choice.note}; tests that need separate backends, LISTEN/NOTIFY across connections or a server restart are skipped`
          : choice.note,
    skipReason(...features) {
      if (choice.kind === "none") return choice.problem;
      if (choice.kind === "server") return undefined;
      const lacking = features.map((feature) => EMBEDDED_LIMITS[feature]);
      return lacking.length === 0 ? undefined : lacking.join("; ");
    },
    target: (prefix) => ({ connectionString: url, schema: `t_${prefix}_${randomBytes(4).toString("hex")}` }),
    query: (sql, values = []) => adminQuery(url, sql, values),
    dropSchema: async (schema) => {
      if (url !== "") await adminQuery(url, `DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    },
  };
}
