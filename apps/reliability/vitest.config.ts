import { defineProject } from "vitest/config";

export default defineProject({
  test: { name: "reliability", include: ["test/**/*.test.ts"], testTimeout: 300_000 },
});
