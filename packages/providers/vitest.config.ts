import { defineProject } from "vitest/config";

export default defineProject({
  test: { name: "providers", include: ["src/**/*.test.ts", "test/**/*.test.ts"] },
});
