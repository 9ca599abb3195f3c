/**
 * Shared StrykerJS options of the per-package `stryker.config.mjs` files (`pnpm mutation`).
 * Each package adds the files to mutate; its `vitest.mutation.config.ts` picks the test files.
 */

/** Stryker's own options for one package, given the globs of the files to mutate. */
export function strykerConfig(mutate) {
  return {
    // Plugins are not dependencies of @stryker-mutator/core under pnpm: load the runner by path.
    plugins: [new URL(import.meta.resolve("@stryker-mutator/vitest-runner")).pathname],
    testRunner: "vitest",
    vitest: { configFile: "vitest.mutation.config.ts", related: false },
    coverageAnalysis: "perTest",
    checkers: [],
    mutate,
    // The machine is shared: one test runner by default, `STRYKER_CONCURRENCY` to change it.
    concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 1),
    timeoutMS: 10_000,
    reporters: ["clear-text", "progress", "json"],
    clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
    jsonReporter: { fileName: "reports/mutation/mutation.json" },
    tempDirName: ".stryker-tmp",
    cleanTempDir: "always",
    ignorePatterns: ["dist", "reports", "bench", "*.tsbuildinfo"],
  };
}
