import { defineProject } from "vitest/config";

export default defineProject({
  test: { name: "agent-loop", include: ["src/**/*.test.ts", "test/**/*.test.ts"] },
});
