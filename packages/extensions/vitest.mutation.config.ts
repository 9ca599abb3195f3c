import { defineProject } from "vitest/config";

/** The tests `pnpm mutation` runs against the mutated hook bus (see stryker.config.mjs). */
export default defineProject({
  test: { name: "extensions-mutation", include: ["src/create-hook-bus*.test.ts", "src/internal/*.test.ts"] },
});
