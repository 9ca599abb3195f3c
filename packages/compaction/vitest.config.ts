import { defineProject } from "vitest/config";

export default defineProject({
  test: { name: "compaction", include: ["src/**/*.test.ts", "test/**/*.test.ts"] },
});
