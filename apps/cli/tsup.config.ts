import { defineConfig } from "tsup";

export default defineConfig([
  {
    // One CommonJS file with the workspace packages inlined (`arbor` starts ~30 ms sooner than from
    // ES module chunks: Node 20 loads each ES module through its asynchronous loader, and compiles
    // them eagerly; see docs/benchmarks.md). The code the commands import lazily stays lazy (esbuild
    // wraps it in an init function); the SDKs, zod, jiti and pg stay external (dependencies).
    entry: { main: "src/main.ts" },
    format: ["cjs"],
    splitting: false,
    noExternal: [/^@arbor\//],
    shims: true,
    // dist/metafile-cjs.json: which modules the bin runs at start-up (test/startup-modules.test.ts).
    metafile: true,
    dts: false,
    sourcemap: true,
    // Only the top level: dist/viewer/ belongs to the second build, which may finish first.
    clean: ["*.js", "*.js.map", "*.cjs", "*.cjs.map"],
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
