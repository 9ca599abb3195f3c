// Loads pi 1.6.0's deep modules (the oracle) from a scratch install. Shared by make-goldens and the bench.
// The install folder is PI_ORACLE_DIR (default /tmp/pi-oracle); it is created with npm when missing.
// pi's code is only run from there, never copied into this repository.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

export const PI_VERSION = "1.6.0";

export function oracleDir() {
  return path.resolve(process.env.PI_ORACLE_DIR ?? "/tmp/pi-oracle");
}

export async function loadOracle() {
  const dir = oracleDir();
  const pkg = path.join(dir, "node_modules/@earendil-works/pi-coding-agent");
  if (!existsSync(path.join(pkg, "package.json"))) {
    console.error(`installing @earendil-works/pi-coding-agent@${PI_VERSION} into ${dir} ...`);
    execFileSync("npm", ["i", "--prefix", dir, `@earendil-works/pi-coding-agent@${PI_VERSION}`], {
      stdio: "inherit",
    });
  }
  const load = (file) => import(pathToFileURL(path.join(pkg, file)).href);
  const [sessionManager, compaction, messages] = await Promise.all([
    load("dist/core/session-manager.js"),
    load("dist/core/compaction/index.js"),
    load("dist/core/messages.js"),
  ]);
  return { ...sessionManager, ...compaction, ...messages };
}
