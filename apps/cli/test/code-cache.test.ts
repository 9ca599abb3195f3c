import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertCliBuilt, CLI_PATH, REPO_ROOT } from "./helpers/cli-paths";
import { isolatedEnv } from "./helpers/run-cli-process";

/**
 * The bin's code cache (scripts/bin-loader.cjs, scripts/build-bin.mjs): the offline commands compile
 * their chunks from the caches the build wrote, a cache V8 refuses is ignored, and every chunk runs
 * once whichever way it was compiled. A preloaded recorder wraps `vm.Script` (the loader's cached
 * chunks) and `Module.prototype._compile` (what Node compiles) and writes what it saw at exit.
 */
const EXAMPLE = path.join(REPO_ROOT, "examples/todo-api-pagination.jsonl");
const DIST = path.dirname(CLI_PATH);
const RECORDER = [
  'const fs = require("node:fs");',
  'const vm = require("node:vm");',
  'const { Module } = require("node:module");',
  "const seen = [];",
  "const Script = vm.Script;",
  "vm.Script = class extends Script {",
  "  constructor(code, options) {",
  "    super(code, options);",
  '    seen.push({ by: "vm", file: options.filename, cache: options.cachedData === undefined ? "none" : this.cachedDataRejected ? "rejected" : "used" });',
  "  }",
  "};",
  "const compile = Module.prototype._compile;",
  "Module.prototype._compile = function (code, file) {",
  '  seen.push({ by: "node", file });',
  "  return compile.call(this, code, file);",
  "};",
  'process.on("exit", () => fs.writeFileSync(process.env.ARBOR_COMPILE_RECORD, JSON.stringify(seen)));',
].join("\n");

interface Compiled {
  by: "vm" | "node";
  file: string;
  cache?: "none" | "rejected" | "used";
}

let dir: string;
let recorder: string;

beforeAll(() => {
  assertCliBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-code-cache-"));
  recorder = path.join(dir, "recorder.cjs");
  fs.writeFileSync(recorder, RECORDER);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs a bin with the recorder preloaded; returns its output and what was compiled, and how. */
function recorded(args: string[], options: { bin?: string; nodeArgs?: string[] } = {}) {
  const record = path.join(dir, `record-${Math.random().toString(36).slice(2)}.json`);
  const run = spawnSync(
    process.execPath,
    [...(options.nodeArgs ?? []), "--require", recorder, options.bin ?? CLI_PATH, ...args],
    {
      cwd: dir,
      env: isolatedEnv({ HOME: dir, ARBOR_HOME: path.join(dir, "home"), ARBOR_COMPILE_RECORD: record }),
      encoding: "utf8",
    },
  );
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  const compiled = JSON.parse(fs.readFileSync(record, "utf8")) as Compiled[];
  return { stdout: run.stdout, compiled, chunks: compiled.map((entry) => path.basename(entry.file)) };
}

const caches = () => fs.readdirSync(DIST).filter((file) => file.endsWith(".cjs.v8cache"));

describe("the bin's code cache", { timeout: 60_000 }, () => {
  it.each([[["inspect", EXAMPLE, "--json"]], [["tree", EXAMPLE]], [["check", EXAMPLE]], [["--version"]]])(
    "arbor %j compiles every chunk it loads from the build's cache, with the same output",
    (args) => {
      const cached = recorded(args);
      expect(cached.compiled.filter((entry) => entry.by === "node").map((entry) => entry.file)).toEqual([
        CLI_PATH,
      ]);
      const fromVm = cached.compiled.filter((entry) => entry.by === "vm");
      expect(fromVm.length).toBeGreaterThan(args[0] === "--version" ? 2 : 8);
      expect(fromVm.filter((entry) => entry.cache !== "used")).toEqual([]);
      // With source maps on, the loader leaves every chunk to Node: no cache, the same result.
      const plain = recorded(args, { nodeArgs: ["--enable-source-maps"] });
      expect(plain.compiled.filter((entry) => entry.by === "vm")).toEqual([]);
      expect(new Set(plain.chunks)).toEqual(new Set(cached.chunks));
      expect(plain.stdout).toBe(cached.stdout);
    },
  );

  it("no chunk that calls import() has a cache (vm code cannot run it), and such chunks exist", () => {
    const chunks = fs.readdirSync(DIST).filter((file) => file.endsWith(".cjs") && file !== "main.cjs");
    const importing = chunks.filter((file) =>
      fs.readFileSync(path.join(DIST, file), "utf8").includes("import("),
    );
    expect(importing.length).toBeGreaterThan(0);
    expect(caches().length).toBeGreaterThan(10);
    for (const file of importing) expect(caches()).not.toContain(`${file}.v8cache`);
  });

  it("each chunk runs once when chunks compiled by Node and from the cache require the same one", () => {
    // `arbor compact` runs the runtime's chunk through Node (it calls `import()`), which requires the
    // session store's and others: those come from their caches, loaded before it.
    const session = path.join(dir, "compacted.jsonl");
    fs.copyFileSync(EXAMPLE, session);
    const { chunks, compiled } = recorded(["compact", session, "--offline"]);
    const byNode = compiled.filter((entry) => entry.by === "node" && entry.file !== CLI_PATH);
    expect(byNode.length).toBeGreaterThan(0);
    for (const entry of byNode) expect(fs.readFileSync(entry.file, "utf8")).toContain("import(");
    expect(compiled.filter((entry) => entry.by === "vm" && entry.cache !== "used")).toEqual([]);
    expect(chunks.length).toBe(new Set(chunks).size);
  });

  describe("in a copy of the build whose caches V8 must refuse", () => {
    let copy: string;
    beforeAll(() => {
      // Inside apps/cli, so that the copy resolves the CLI's dependencies as the build does.
      copy = fs.mkdtempSync(path.join(path.dirname(DIST), ".code-cache-test-"));
      fs.cpSync(DIST, copy, { recursive: true });
    });
    afterAll(() => fs.rmSync(copy, { recursive: true, force: true }));

    it("the caches still serve from another folder (a cache names no path)", () => {
      const moved = recorded(["inspect", EXAMPLE, "--json"], { bin: path.join(copy, "main.cjs") });
      const fromVm = moved.compiled.filter((entry) => entry.by === "vm");
      expect(fromVm.length).toBeGreaterThan(8);
      expect(fromVm.every((entry) => entry.file.startsWith(copy))).toBe(true);
      expect(fromVm.filter((entry) => entry.cache !== "used")).toEqual([]);
    });

    it.each([
      ["cut in half", (bytes: Buffer) => bytes.subarray(0, bytes.length >> 1)],
      ["filled with other bytes", (bytes: Buffer) => Buffer.alloc(bytes.length, 0x5a)],
      ["another chunk's", (_bytes: Buffer, other: Buffer) => other],
    ])("a cache %s is ignored: the chunk compiles from its source", (_name, spoil) => {
      const names = caches();
      const originals = names.map((name) => fs.readFileSync(path.join(DIST, name)));
      names.forEach((name, index) => {
        const other = originals[(index + 1) % originals.length] as Buffer;
        fs.writeFileSync(path.join(copy, name), spoil(originals[index] as Buffer, other));
      });
      const bin = path.join(copy, "main.cjs");
      const spoiled = recorded(["inspect", EXAMPLE, "--json"], { bin });
      const fromVm = spoiled.compiled.filter((entry) => entry.by === "vm");
      expect(fromVm.length).toBeGreaterThan(8);
      expect(fromVm.filter((entry) => entry.cache !== "rejected")).toEqual([]);
      expect(spoiled.stdout).toBe(recorded(["inspect", EXAMPLE, "--json"]).stdout);
    });
  });
});
