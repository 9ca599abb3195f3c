import { defineProject } from "vitest/config";

// Live tests (*.live.test.ts) call the real APIs; they run only through vitest.live.config.ts.
export default defineProject({
  test: {
    name: "providers",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    exclude: ["**/node_modules/**", "**/dist/**", "**/*.live.test.ts"],
  },
});
