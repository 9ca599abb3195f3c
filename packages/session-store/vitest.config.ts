import { defineProject } from "vitest/config";

export default defineProject({
  test: { name: "session-store", include: ["src/**/*.test.ts", "test/**/*.test.ts"] },
});
