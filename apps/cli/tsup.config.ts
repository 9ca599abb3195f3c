import { defineConfig } from "tsup";

// The `arbor` bin (dist/main.cjs and its chunks) is built by scripts/build-bin.mjs; tsup builds the
// script of `arbor export --html`, inlined into each exported page (see src/export/).
export default defineConfig([
  {
    entry: { "export-viewer": "src/export/viewer/viewer-entry.ts" },
    outDir: "dist/viewer",
    format: ["iife"],
    platform: "browser",
    target: "es2020",
    minify: true,
    sourcemap: false,
    clean: true,
    outExtension: () => ({ js: ".js" }),
  },
]);
