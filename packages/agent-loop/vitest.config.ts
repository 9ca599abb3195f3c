import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "agent-loop",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Type tests (declaration merging under the real package name) run through tsc; they resolve
    // "@arbor/agent-loop" to the built dist, so build first (`pnpm test` does).
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});
