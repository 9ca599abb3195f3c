import { defineConfig } from "tsup";

export default defineConfig([
  {
    entry: { main: "src/main.ts" },
    format: ["esm"],
    dts: false,
    sourcemap: true,
    // Only the top level: dist/viewer/ belongs to the second build, which may finish first.
    clean: ["*.js", "*.js.map"],
    target: "node20",
    banner: { js: "#!/usr/bin/env node" },
  },
  {
    // The script of `arbor export --html`, inlined into each exported page (see src/export/).
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
