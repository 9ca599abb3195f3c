import { defineProject } from "vitest/config";

/**
 * The tests `pnpm mutation` runs against the mutated compaction code (see stryker.config.mjs): the
 * unit tests of the decisions and the end-to-end tests about compaction and recovery.
 */
export default defineProject({
  test: {
    name: "runtime-mutation",
    include: [
      "src/compaction/*.test.ts",
      "test/e2e/overflow-recovery.test.ts",
      "test/e2e/length-and-silent-overflow.test.ts",
      "test/e2e/loop-guard.test.ts",
      "test/e2e/threshold-compaction.test.ts",
      "test/e2e/failing-summary.test.ts",
      "test/e2e/session-api.test.ts",
      "test/e2e/extension-isolation.test.ts",
    ],
  },
});
