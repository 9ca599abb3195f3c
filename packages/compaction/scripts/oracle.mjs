// Loads pi 1.6.0's deep modules (the oracle) from a scratch install. Shared by make-goldens and the bench.
// The install folder is PI_ORACLE_DIR (default /tmp/pi-oracle); it is created with npm when missing.
// pi's code is only run from there, never copied into this repository.
import { ensurePiOracle, importPiModule, PI_VERSION, piOracleDir } from "../../../scripts/pi-oracle.mjs";

export { PI_VERSION };

export function oracleDir() {
  return piOracleDir();
}

export async function loadOracle() {
  const dir = oracleDir();
  ensurePiOracle(dir);
  const load = (file) => importPiModule(file, dir);
  const [sessionManager, compaction, messages] = await Promise.all([
    load("dist/core/session-manager.js"),
    load("dist/core/compaction/index.js"),
    load("dist/core/messages.js"),
  ]);
  return { ...sessionManager, ...compaction, ...messages };
}
