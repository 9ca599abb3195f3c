import { strykerConfig } from "../../scripts/stryker-base.mjs";

/** Mutation testing of the context projection (`pnpm mutation session-store`). */
export default strykerConfig(["src/projection/*.ts", "!src/projection/*.test.ts"]);
