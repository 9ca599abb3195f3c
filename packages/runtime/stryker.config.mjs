import { strykerConfig } from "../../scripts/stryker-base.mjs";

/** Mutation testing of the compaction decisions and overflow recovery (`pnpm mutation runtime`). */
export default strykerConfig(["src/compaction/*.ts", "!src/compaction/*.test.ts"]);
