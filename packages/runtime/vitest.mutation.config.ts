import { defineProject } from "vitest/config";

/**
 * The tests `pnpm mutation` runs against the mutated compaction code (see stryker.config.mjs): the
 * unit tests of the decisions, recovery and the pipeline. The end-to-end tests (test/e2e) drive the
 * same code through `createAgentSession` in `pnpm test`; they are left out here because every test
 * file a mutant reaches is loaded again for that mutant, and theirs load two SDKs each.
 */
export default defineProject({
  test: {
    name: "runtime-mutation",
    include: ["src/compaction/*.test.ts"],
  },
});
