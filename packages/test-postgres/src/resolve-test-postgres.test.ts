import { describe, expect, it } from "vitest";
import { DEFAULT_TEST_PG_URL, type ResolveDeps, resolveTestPostgres } from "./resolve-test-postgres";

/** Fakes that record what was tried; `up` says which URLs answer; `cluster: null` starts one at the default URL. */
function fakes(env: Record<string, string>, up: string[], cluster: string | null = "not installed") {
  const tried: string[] = [];
  const answering = new Set(up);
  const deps: ResolveDeps = {
    env,
    probe: async (url) => {
      tried.push(`probe ${url}`);
      return answering.has(url) ? undefined : "ECONNREFUSED";
    },
    startCluster: async () => {
      tried.push("cluster");
      if (cluster === null) answering.add(DEFAULT_TEST_PG_URL);
      return cluster ?? undefined;
    },
    startEmbedded: async () => {
      tried.push("embedded");
      return { url: "postgresql://postgres@127.0.0.1:1/postgres", version: "PG", close: async () => {} };
    },
    sleep: async () => {},
  };
  return { deps, tried };
}

describe("resolveTestPostgres", () => {
  it("uses the default server when it answers, and tries nothing else", async () => {
    const { deps, tried } = fakes({}, [DEFAULT_TEST_PG_URL]);
    expect(await resolveTestPostgres(deps)).toMatchObject({ kind: "server", url: DEFAULT_TEST_PG_URL });
    expect(tried).toEqual([`probe ${DEFAULT_TEST_PG_URL}`]);
  });

  it("ARBOR_TEST_PG=embedded forces the embedded PostgreSQL even with a server up", async () => {
    const { deps, tried } = fakes({ ARBOR_TEST_PG: "embedded" }, [DEFAULT_TEST_PG_URL]);
    const choice = await resolveTestPostgres(deps);
    expect(choice).toMatchObject({ kind: "embedded" });
    expect(choice.kind === "embedded" && choice.note).toContain("ARBOR_TEST_PG=embedded");
    expect(tried).toEqual(["embedded"]);
  });

  it("starts the local cluster when the default server is down and it is installed", async () => {
    const { deps, tried } = fakes({}, [], null);
    expect(await resolveTestPostgres(deps)).toMatchObject({ kind: "server", url: DEFAULT_TEST_PG_URL });
    expect(tried).toEqual([`probe ${DEFAULT_TEST_PG_URL}`, "cluster", `probe ${DEFAULT_TEST_PG_URL}`]);
  });

  it("falls back to the embedded PostgreSQL when no cluster is installed, saying why", async () => {
    const { deps, tried } = fakes({}, []);
    const choice = await resolveTestPostgres(deps);
    expect(choice.kind).toBe("embedded");
    expect(choice.kind === "embedded" && choice.note).toMatch(
      /no PostgreSQL at .*ECONNREFUSED.*not installed/,
    );
    expect(tried).toEqual([`probe ${DEFAULT_TEST_PG_URL}`, "cluster", "embedded"]);
  });

  it("a named ARBOR_TEST_PG_URL that does not answer is not replaced: none, with the reason", async () => {
    const { deps, tried } = fakes({ ARBOR_TEST_PG_URL: "postgresql://u:secret@db.test:5432/x" }, []);
    const choice = await resolveTestPostgres(deps);
    expect(choice.kind).toBe("none");
    expect(choice.kind === "none" && choice.problem).toContain("postgresql://u:***@db.test:5432/x");
    expect(choice.kind === "none" && choice.problem).not.toContain("secret");
    expect(tried).toEqual(["probe postgresql://u:secret@db.test:5432/x"]);
  });

  it("reports none when even the embedded PostgreSQL cannot start", async () => {
    const { deps } = fakes({}, []);
    deps.startEmbedded = async () => {
      throw new Error("Cannot find package '@electric-sql/pglite'");
    };
    const choice = await resolveTestPostgres(deps);
    expect(choice.kind === "none" && choice.problem).toMatch(
      /embedded PostgreSQL did not start: Cannot find/,
    );
  });
});
