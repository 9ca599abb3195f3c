#!/usr/bin/env node
"use strict";
/**
 * The `arbor` bin (copied to `dist/main.cjs` by build-bin.mjs): loads the CLI's chunks, starting with
 * `cli.cjs`, from V8's code cache where the build left one.
 *
 * A chunk with a `<chunk>.cjs.v8cache` file beside it is compiled with `vm.Script` and that cache, so
 * V8 deserializes the bytecode of the functions the build's training runs compiled instead of
 * compiling them again (`arbor inspect` starts ~10 ms sooner, docs/benchmarks.md). Every other chunk,
 * and every chunk when Node runs with source maps enabled, goes through Node's own `require`. Both
 * kinds share `require.cache`, so each chunk runs once whoever requires it first. V8 checks a cache
 * against its own version, its flags and the source's length, and ignores one that does not match
 * (another Node version, `--max-old-space-size`, ...): the chunk then compiles from its source, as
 * without a cache. Nothing is ever written here at run time: the caches are build outputs, as
 * trusted as the chunks beside them (edit a chunk by hand and delete its cache).
 *
 * A chunk that calls `import()` gets no cache (build-bin.mjs): `vm.Script` code cannot run `import()`
 * without an experimental flag, so those chunks must be compiled by Node. Before Node compiles a chunk,
 * the chunks it requires at its top (its static imports, which run first in any case) are loaded
 * here, so that they still come from their caches.
 */
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");
const { createRequire, Module } = require("node:module");

/** A chunk's cache file, beside it. */
const CACHE_SUFFIX = ".v8cache";
/** How a chunk names another chunk (build-bin.mjs writes `require("./chunk-X.cjs")`). */
const CHUNK_REQUEST = /^\.\/[\w-]+\.cjs$/;
/** A chunk's static import of another chunk, as esbuild writes it at the top of the chunk. */
const STATIC_CHUNK_REQUIRE = /^var \w+ = require\("(\.\/[\w-]+\.cjs)"\);$/gm;
/** Node's CommonJS wrapper on a line of its own (`lineOffset: -1` keeps the chunk's line numbers). */
const WRAPPER_START = "(function (exports, require, module, __filename, __dirname) {\n";
const WRAPPER_END = "\n})";
/**
 * Set only by scripts/code-cache-trainer.cjs, preloaded by the build's training runs: every chunk
 * that can be cached is compiled here (none has a cache yet) and listed so that the trainer can write
 * its cache at exit.
 */
const training = globalThis.__arborCodeCacheTraining;
const cacheUsable = !process.sourceMapsEnabled;

/**
 * Runs the chunk `file` (absolute) once and returns its exports, from `require.cache` when it ran
 * already.
 */
function loadChunk(file) {
  const loaded = require.cache[file];
  if (loaded !== undefined) return loaded.exports;
  let cachedData;
  if (training === undefined) {
    if (!cacheUsable) return require(file);
    try {
      cachedData = fs.readFileSync(file + CACHE_SUFFIX);
    } catch {
      return requireThroughNode(file, fs.readFileSync(file, "utf8"));
    }
  }
  const source = fs.readFileSync(file, "utf8");
  if (training !== undefined && source.includes("import(")) return requireThroughNode(file, source);
  const script = new vm.Script(WRAPPER_START + source + WRAPPER_END, {
    filename: file,
    lineOffset: -1,
    cachedData,
  });
  training?.push({ file, script });
  const chunk = new Module(file, module);
  chunk.filename = file;
  require.cache[file] = chunk;
  const dir = path.dirname(file);
  let outside;
  const chunkRequire = (request) => {
    if (CHUNK_REQUEST.test(request)) return loadChunk(path.join(dir, request));
    outside ??= createRequire(file);
    return outside(request);
  };
  try {
    script.runInThisContext().call(chunk.exports, chunk.exports, chunkRequire, chunk, file, dir);
  } catch (error) {
    delete require.cache[file];
    throw error;
  }
  chunk.loaded = true;
  return chunk.exports;
}

/** Has Node compile and run the chunk `file` (whose text is `source`), after its static imports. */
function requireThroughNode(file, source) {
  const dir = path.dirname(file);
  for (const [, request] of source.matchAll(STATIC_CHUNK_REQUIRE)) loadChunk(path.join(dir, request));
  return require(file);
}

loadChunk(path.join(__dirname, "cli.cjs"));
