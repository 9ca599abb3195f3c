import { defineProject } from "vitest/config";

export default defineProject({
  test: { name: "extensions", include: ["src/**/*.test.ts", "test/**/*.test.ts"] },
});
