import { defineProject } from "vitest/config";

/** The tests `pnpm mutation` runs against the mutated compaction code (see stryker.config.mjs). */
export default defineProject({
  test: {
    name: "runtime-mutation",
    include: ["src/compaction/*.test.ts", "test/e2e/*.test.ts", "test/examples/*.test.ts"],
  },
});
