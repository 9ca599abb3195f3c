import { defineProject } from "vitest/config";

export default defineProject({
  test: { name: "test-postgres", include: ["src/**/*.test.ts"] },
});
