import { defineProject } from "vitest/config";

/** The tests `pnpm mutation` runs against the mutated projection (see stryker.config.mjs). */
export default defineProject({
  test: {
    name: "session-store-mutation",
    include: [
      "src/projection/*.test.ts",
      "src/session-store.test.ts",
      "src/session-store.property.test.ts",
      "src/conformance.test.ts",
      "src/hidden-corruption.test.ts",
    ],
  },
});
