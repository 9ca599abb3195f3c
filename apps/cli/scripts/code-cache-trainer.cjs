"use strict";
/**
 * Preloaded (`node --require`) by build-bin.mjs into each training run of the built bin: the bin's
 * loader (bin-loader.cjs) lists every chunk it compiles in `globalThis.__arborCodeCacheTraining`, and
 * at exit this writes each chunk's V8 code cache beside it. The cache holds the bytecode of every
 * function compiled so far, so the runs are real commands on a real session. Several runs may load
 * the same chunk: the largest cache (the one with the most functions) is kept.
 */
const fs = require("node:fs");

const compiled = [];
globalThis.__arborCodeCacheTraining = compiled;

process.on("exit", () => {
  for (const { file, script } of compiled) {
    const data = script.createCachedData();
    const target = `${file}.v8cache`;
    let size = 0;
    try {
      size = fs.statSync(target).size;
    } catch {
      // no cache yet
    }
    if (data.length > size) fs.writeFileSync(target, data);
  }
});
