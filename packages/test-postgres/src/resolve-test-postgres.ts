/** The server the tests used when none is named: the local cluster (trust auth), database `test`. */
export const DEFAULT_TEST_PG_URL = "postgresql://postgres@127.0.0.1:5432/test";

/**
 * What a test may need beyond SQL on one connection. A real server has all of it; the embedded
 * PostgreSQL (PGlite) runs every connection on one backend, so it has none.
 */
export type PostgresFeature = "separate-backends" | "listen-notify" | "server-restart";

/** Why the embedded PostgreSQL cannot run a test that needs each feature (printed in the skip). */
export const EMBEDDED_LIMITS: Readonly<Record<PostgresFeature, string>> = {
  "separate-backends":
    "embedded PostgreSQL (PGlite) serves every connection from one backend: advisory locks do not exclude another connection, pg_terminate_backend cannot cut one, a transaction blocks every other connection",
  "listen-notify":
    "embedded PostgreSQL (PGlite) delivers NOTIFY to the notifying connection, not to another connection's LISTEN",
  "server-restart":
    "embedded PostgreSQL (PGlite) lives in the test process: it cannot be restarted under a client",
};

/** Which PostgreSQL the tests talk to, and why. */
export type TestPostgresChoice =
  | { kind: "server"; url: string; note: string }
  | { kind: "embedded"; url: string; note: string; close: () => Promise<void> }
  | { kind: "none"; problem: string };

/** The effects {@link resolveTestPostgres} needs (injected by its tests). */
export interface ResolveDeps {
  env: Readonly<Record<string, string | undefined>>;
  probe(url: string): Promise<string | undefined>;
  startCluster(): Promise<string | undefined>;
  startEmbedded(): Promise<{ url: string; version: string; close: () => Promise<void> }>;
  /** Waits between probes after the cluster was started (default: a real timer). */
  sleep?(ms: number): Promise<void>;
}

/**
 * Picks the PostgreSQL of the tests, in this order:
 * 1. `ARBOR_TEST_PG=embedded`: the embedded PostgreSQL, whatever else runs.
 * 2. `ARBOR_TEST_PG_URL` (default {@link DEFAULT_TEST_PG_URL}) when it answers.
 * 3. When the URL was named (`ARBOR_TEST_PG_URL`) or `ARBOR_TEST_PG=server`: nothing else is tried;
 *    `none` with the reason (the tests skip and say it).
 * 4. The local cluster, started (`pg_ctlcluster`) when installed, if the default URL then answers.
 * 5. The embedded PostgreSQL; `none` when even that cannot start.
 * Never throws.
 */
export async function resolveTestPostgres(deps: ResolveDeps): Promise<TestPostgresChoice> {
  const mode = deps.env.ARBOR_TEST_PG ?? "auto";
  const named = deps.env.ARBOR_TEST_PG_URL;
  const url = named || DEFAULT_TEST_PG_URL;
  const embedded = async (why: string): Promise<TestPostgresChoice> => {
    try {
      const started = await deps.startEmbedded();
      return {
        kind: "embedded",
        url: started.url,
        note: `embedded ${started.version} at ${started.url} (${why})`,
        close: started.close,
      };
    } catch (error) {
      return {
        kind: "none",
        problem: `${why}; the embedded PostgreSQL did not start: ${(error as Error).message}`,
      };
    }
  };
  if (mode === "embedded") return embedded("ARBOR_TEST_PG=embedded");
  if (mode !== "auto" && mode !== "server") {
    return { kind: "none", problem: `ARBOR_TEST_PG=${mode} is not one of embedded, server` };
  }
  const problem = await deps.probe(url);
  if (problem === undefined) return { kind: "server", url, note: `PostgreSQL at ${withoutPassword(url)}` };
  const unreachable = `no PostgreSQL at ${withoutPassword(url)} (${problem})`;
  if (named || mode === "server") {
    return { kind: "none", problem: `${unreachable}: start it, or unset ARBOR_TEST_PG_URL to fall back` };
  }
  const notStarted = await deps.startCluster();
  if (notStarted === undefined) {
    let again: string | undefined = "not probed";
    for (let attempt = 0; attempt < 50 && again !== undefined; attempt++) {
      again = await deps.probe(url);
      if (again !== undefined) await (deps.sleep ?? delay)(200);
    }
    if (again === undefined) {
      return { kind: "server", url, note: `the local cluster, started (pg_ctlcluster), at ${url}` };
    }
    return embedded(`${unreachable}; the local cluster started but does not answer there (${again})`);
  }
  return embedded(`${unreachable}; ${notStarted}`);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `url` with its password replaced by `***`, for messages. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.toString();
  } catch {
    return url;
  }
}
