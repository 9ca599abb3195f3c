#!/usr/bin/env node
/**
 * Builds the `arbor` bin: `dist/main.cjs`, the CommonJS chunks it loads and their V8 code caches, with the Arbor
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
 * 3. `dist/main.cjs` is the loader (scripts/bin-loader.cjs), which runs `dist/cli.cjs` (src/main.ts);
 * 4. training runs of the built bin (offline commands on examples/todo-api-pagination.jsonl, with
 *    scripts/code-cache-trainer.cjs preloaded) write each chunk's V8 code cache, `<chunk>.cjs.v8cache`,
 *    which the loader hands to V8 (bin-loader.cjs says when a cache is used and when V8 ignores it).
 *
 * `import.meta.url` (used to find the export viewer and to `createRequire`) is each chunk's own file
 * URL. The module graph of step 1 is written to `dist/metafile-cjs.json` (the start-up tests read it).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
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
  // dist/viewer/ is the viewer's build (tsup, run first: `arbor export --html` needs it to train).
  if (name.isFile()) fs.rmSync(path.join(dist, name.name));
}

const esm = await esbuild.build({
  absWorkingDir: root,
  entryPoints: { cli: "src/main.ts" },
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
  fs.writeFileSync(out, code);
}
fs.writeFileSync(path.join(dist, "metafile-cjs.json"), JSON.stringify(esm.metafile));
fs.rmSync(stage, { recursive: true, force: true });
const bin = path.join(dist, "main.cjs");
fs.copyFileSync(path.join(root, "scripts/bin-loader.cjs"), bin);
fs.chmodSync(bin, 0o755);
const cached = trainCodeCache();
console.log(
  `built ${chunks.length} chunks into ${path.relative(process.cwd(), dist) || "."} (${cached} with a code cache)`,
);

/**
 * Runs the built bin's offline commands with the trainer preloaded, in an empty home and folder and
 * with no provider key in the environment; returns how many chunks got a cache. A failed run fails
 * the build (the bin it would ship does not work).
 */
function trainCodeCache() {
  const session = path.resolve(root, "../../examples/todo-api-pagination.jsonl");
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-code-cache-"));
  const env = { PATH: process.env.PATH ?? "", HOME: scratch, ARBOR_HOME: path.join(scratch, "home") };
  const runs = [
    ["--version"],
    ["--help"],
    ["inspect", session, "--json"],
    ["inspect", session],
    ["tree", session],
    ["check", session],
    ["export", session, "--md", "-o", "-"],
    ["export", session, "--html", "-o", path.join(scratch, "page.html")],
    ["sessions"],
    ["models"],
    ["trust", "--list"],
    ["compact", path.join(scratch, "compacted.jsonl"), "--offline"],
  ];
  fs.copyFileSync(session, path.join(scratch, "compacted.jsonl"));
  try {
    for (const args of runs) {
      const run = spawnSync(
        process.execPath,
        ["--require", path.join(root, "scripts/code-cache-trainer.cjs"), bin, ...args],
        { cwd: scratch, env, encoding: "utf8" },
      );
      if (run.status !== 0) {
        throw new Error(`training run \`arbor ${args.join(" ")}\` exited ${run.status}: ${run.stderr}`);
      }
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return fs.readdirSync(dist).filter((file) => file.endsWith(".v8cache")).length;
}
