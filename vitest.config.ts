import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*", "scripts"],
    reporters: ["default", ["json", { outputFile: ".vitest-report.json" }]],
  },
});
