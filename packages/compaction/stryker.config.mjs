import { strykerConfig } from "../../scripts/stryker-base.mjs";

/** Mutation testing of the cut-point search and the compaction preparation (`pnpm mutation compaction`). */
export default strykerConfig([
  "src/internal/cut-point-search.ts",
  "src/cut-point/find-cut-point.ts",
  "src/prepare/prepare-compaction.ts",
  "src/prepare/find-projected-cut-point.ts",
]);
