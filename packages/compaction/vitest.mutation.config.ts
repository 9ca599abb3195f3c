import { defineProject } from "vitest/config";

/** The tests `pnpm mutation` runs against the mutated cut-point code (see stryker.config.mjs). */
export default defineProject({
  test: {
    name: "compaction-mutation",
    include: [
      "src/prepare/*.test.ts",
      "src/cut-point/*.test.ts",
      "src/pi-conformance.test.ts",
      "src/session-store-integration.test.ts",
      "src/summary/compact.test.ts",
    ],
  },
});
