import { defineProject } from "vitest/config";

/**
 * The tests `pnpm mutation` runs against the mutated compaction code (see stryker.config.mjs): the
 * unit tests of the decisions and the end-to-end tests of recovery and the loop guard (each test file
 * a mutant reaches is loaded again for it, so the list is kept short).
 */
export default defineProject({
  test: {
    name: "runtime-mutation",
    include: [
      "src/compaction/*.test.ts",
      "test/e2e/overflow-recovery.test.ts",
      "test/e2e/length-and-silent-overflow.test.ts",
      "test/e2e/loop-guard.test.ts",
      "test/e2e/failing-summary.test.ts",
    ],
  },
});
