// The one place that knows how to get pi 1.6.0 (the reference implementation, used only as an oracle)
// into a scratch folder outside the repository. Shared by the goldens scripts, the benchmarks and the
// CLI's differential check. pi's code is only run from that folder, never copied into this repository.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** The pi version Arbor conforms to. */
export const PI_VERSION = "1.6.0";
/** pi's npm package. */
export const PI_PACKAGE = "@earendil-works/pi-coding-agent";

/** The scratch install folder: `dir`, else `$PI_ORACLE_DIR`, else `/tmp/pi-oracle`. */
export function piOracleDir(dir) {
  return path.resolve(dir ?? process.env.PI_ORACLE_DIR ?? "/tmp/pi-oracle");
}

/** The folder of pi's package inside an install folder. */
export function piPackageDir(dir = piOracleDir()) {
  return path.join(dir, "node_modules", ...PI_PACKAGE.split("/"));
}

/** True when `dir` holds exactly pi {@link PI_VERSION}. */
export function isPiInstalled(dir = piOracleDir()) {
  const manifest = path.join(piPackageDir(dir), "package.json");
  return existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).version === PI_VERSION;
}

/**
 * Installs pi into `dir` with npm unless it is already there, and returns pi's package folder.
 * Throws when the folder holds another pi version afterwards (npm failed or the folder is foreign).
 */
export function ensurePiOracle(dir = piOracleDir()) {
  if (!isPiInstalled(dir)) {
    console.error(`installing ${PI_PACKAGE}@${PI_VERSION} into ${dir} ...`);
    mkdirSync(dir, { recursive: true });
    execFileSync("npm", ["i", "--prefix", dir, "--no-audit", "--no-fund", `${PI_PACKAGE}@${PI_VERSION}`], {
      stdio: ["ignore", "inherit", "inherit"],
    });
    if (!isPiInstalled(dir))
      throw new Error(`${piPackageDir(dir)} does not hold pi ${PI_VERSION} after npm install`);
  }
  return piPackageDir(dir);
}

/**
 * Imports one of pi's deep modules by file URL (pi's package index needs Node 22; its deep modules
 * load on Node 20), for example `importPiModule("dist/core/session-manager.js")`.
 */
export function importPiModule(relativePath, dir = piOracleDir()) {
  return import(pathToFileURL(path.join(piPackageDir(dir), relativePath)).href);
}
