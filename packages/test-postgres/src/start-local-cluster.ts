import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";

/**
 * Starts the local PostgreSQL cluster the Debian way, as `.ci/run` does:
 * `pg_ctlcluster --skip-systemctl-redirect <newest version> main start`. Resolves `undefined` once
 * the command ran (or the cluster was already running), else why it could not (not installed, no
 * permission). Never throws.
 */
export async function startLocalCluster(): Promise<string | undefined> {
  if (!existsSync("/etc/postgresql")) return "no PostgreSQL installed (/etc/postgresql is missing)";
  const versions = readdirSync("/etc/postgresql")
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(a) - Number(b));
  const version = versions.at(-1);
  if (version === undefined) return "no cluster under /etc/postgresql";
  try {
    execFileSync("pg_ctlcluster", ["--skip-systemctl-redirect", version, "main", "start"], {
      stdio: "pipe",
      timeout: 30_000,
    });
    return undefined;
  } catch (error) {
    const output = `${(error as { stderr?: Buffer }).stderr?.toString() ?? ""}`.trim();
    // Another test file started it first.
    if (/already running/i.test(output)) return undefined;
    return `pg_ctlcluster ${version} main start failed: ${output || (error as Error).message}`;
  }
}
