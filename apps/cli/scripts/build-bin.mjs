#!/usr/bin/env node
/**
 * Builds the `arbor` bin: `dist/main.cjs` and the CommonJS chunks it requires, with the Arbor
 * packages built in (their published ES modules, inlined) and the dependencies of package.json
 * (provider SDKs, tokenizer, zod, jiti, pg) left to `require`/`import` at run time.
 *
 * Why CommonJS, and why chunks: Node 20 loads ES modules one by one through its asynchronous loader
 * and has no compile cache for them; the same code as CommonJS starts ~15 ms sooner for
 * `arbor inspect` (docs/benchmarks.md). One CommonJS file would make every command parse the code of
 * all the others (~1 MB, +8% instructions for `arbor --version`), so the code each command imports
 * lazily stays in its own chunk:
 *
 * 1. esbuild bundles `src/main.ts` as ES module chunks (`splitting`: what is imported with `import()`
 *    gets its own chunk, code shared by several chunks a shared one), into a temporary folder;
 * 2. each chunk is converted to CommonJS (esbuild again: its source map is read and carried over) and
 *    written to `dist/` as `.cjs`; a chunk's `import("./chunk.js")` of another chunk becomes a
 *    `require` in a resolved promise (same result, no ES module loader), static imports `require`.
 *
 * `import.meta.url` (used to find the export viewer and to `createRequire`) is each chunk's own file
 * URL. The module graph of step 1 is written to `dist/metafile-cjs.json` (the start-up tests read it).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(root, "dist");
const stage = path.join(root, "dist-esm-stage");
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
const external = Object.keys(pkg.dependencies ?? {}).filter((name) => !name.startsWith("@arbor/"));

const USE_STRICT = '"use strict";\n';
/** What `import.meta.url` is replaced by in a CommonJS chunk (only one that uses it): its file URL. */
const MODULE_URL_NAME = "__arborModuleUrl";
const MODULE_URL = `var ${MODULE_URL_NAME} = require("node:url").pathToFileURL(__filename).href;\n`;
/** A chunk's import of another chunk, as step 1 writes it. */
const CHUNK_IMPORT = /\b(require|import)\("\.\/([\w-]+)\.js"\)/g;

fs.rmSync(stage, { recursive: true, force: true });
fs.mkdirSync(dist, { recursive: true });
for (const name of fs.readdirSync(dist, { withFileTypes: true })) {
  // dist/viewer/ belongs to the viewer's build (tsup), which may run at the same time.
  if (name.isFile()) fs.rmSync(path.join(dist, name.name));
}

const esm = await esbuild.build({
  absWorkingDir: root,
  entryPoints: { main: "src/main.ts" },
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  outdir: stage,
  external,
  sourcemap: "linked",
  metafile: true,
  // Not "warning": the providers' entries import a chunk for its side effects, which their package
  // says it has none of (esbuild says it drops the import, as intended).
  logLevel: "error",
});

const chunks = fs.readdirSync(stage).filter((file) => file.endsWith(".js"));
await esbuild.build({
  absWorkingDir: root,
  entryPoints: chunks.map((file) => path.join(stage, file)),
  bundle: false,
  format: "cjs",
  platform: "node",
  target: "node20",
  outdir: dist,
  outExtension: { ".js": ".cjs" },
  sourcemap: "linked",
  define: { "import.meta.url": MODULE_URL_NAME },
  logLevel: "warning",
});

for (const file of chunks) {
  const out = path.join(dist, file.replace(/\.js$/, ".cjs"));
  let code = fs
    .readFileSync(out, "utf8")
    .replace(CHUNK_IMPORT, (_, kind, name) =>
      kind === "require"
        ? `require("./${name}.cjs")`
        : `Promise.resolve().then(() => require("./${name}.cjs"))`,
    );
  if (code.includes(MODULE_URL_NAME)) {
    // After the "use strict" directive (a statement before it would make the chunk sloppy-mode code).
    const strict = code.startsWith(USE_STRICT) ? USE_STRICT.length : 0;
    code = `${code.slice(0, strict)}${MODULE_URL}${code.slice(strict)}`;
  }
  if (file === "main.js") code = `#!/usr/bin/env node\n${code}`;
  fs.writeFileSync(out, code);
  if (file === "main.js") fs.chmodSync(out, 0o755);
}
fs.writeFileSync(path.join(dist, "metafile-cjs.json"), JSON.stringify(esm.metafile));
fs.rmSync(stage, { recursive: true, force: true });
console.log(`built ${chunks.length} chunks into ${path.relative(process.cwd(), dist) || "."}`);
