import { strykerConfig } from "../../scripts/stryker-base.mjs";

/** Mutation testing of the hook bus dispatch (`pnpm mutation extensions`). */
export default strykerConfig(["src/create-hook-bus.ts", "src/internal/run-handler.ts"]);
