import { defineProject } from "vitest/config";

/** The tests `pnpm mutation` runs against the mutated cut-point code (see stryker.config.mjs). */
export default defineProject({
  test: {
    name: "compaction-mutation",
    // pi-conformance.test.ts then leaves out its generated 6000-entry sessions (see there).
    env: { ARBOR_MUTATION: "1" },
    include: [
      "src/prepare/*.test.ts",
      "src/cut-point/*.test.ts",
      "src/internal/cut-point-search.test.ts",
      "src/pi-conformance.test.ts",
      "src/session-store-integration.test.ts",
      "src/summary/compact.test.ts",
    ],
  },
});
