import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertCliBuilt, CLI_PATH, REPO_ROOT } from "./helpers/cli-paths";
import { isolatedEnv } from "./helpers/run-cli-process";

/**
 * Start-up cost: the offline commands load only what they need. Each run of the built CLI is traced
 * (every ES module resolved, and every CommonJS module in `require.cache` at exit, which is how zod is
 * loaded when a schema is needed); no provider SDK, tokenizer, zod or database driver may appear, nor
 * `node:crypto` (every built-in module loaded is listed too). Which of the inlined Arbor packages'
 * modules run is read from the build's module graph (see `staticClosure`).
 */
const EXAMPLE = path.join(REPO_ROOT, "examples/todo-api-pagination.jsonl");
const HEAVY = [
  /[\\/]zod[\\/]/,
  /@anthropic-ai[\\/]sdk/,
  /[\\/]openai[\\/]/,
  /js-tiktoken/,
  // The PostgreSQL backend and its driver load only for a postgresql:// location.
  /[\\/]pg[\\/]/,
  /session-store[\\/]dist[\\/]postgres[\\/]/,
];
/** Built-in modules the offline commands do not need (`node:crypto` costs a few ms to load). */
const HEAVY_BUILTINS = [/^node-builtin:crypto$/];

let dir: string;
let preload: string;

beforeAll(() => {
  assertCliBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-startup-"));
  preload = path.join(dir, "trace-modules.mjs");
  const hooks = [
    'import { appendFileSync } from "node:fs";',
    "export async function resolve(specifier, context, next) {",
    "  const result = await next(specifier, context);",
    '  appendFileSync(process.env.ARBOR_MODULE_TRACE, result.url + "\\n");',
    "  return result;",
    "}",
  ].join("\n");
  fs.writeFileSync(
    preload,
    [
      'import { appendFileSync } from "node:fs";',
      'import { createRequire, register } from "node:module";',
      `register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});`,
      "const cache = createRequire(import.meta.url).cache;",
      'process.on("exit", () => appendFileSync(process.env.ARBOR_MODULE_TRACE, Object.keys(cache).join("\\n")));',
      // Built-in modules, however loaded (an `import`, a `require`, or inside Node), as `node-builtin:NAME`.
      'process.on("exit", () => appendFileSync(process.env.ARBOR_MODULE_TRACE, "\\n" + process.moduleLoadList.filter((n) => n.startsWith("NativeModule ")).map((n) => "node-builtin:" + n.slice(13)).join("\\n")));',
    ].join("\n"),
  );
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs the built CLI with the tracer; returns the exit code and every module loaded. */
function traced(
  args: string[],
  home = path.join(dir, "home"),
  stderr = "",
): { code: number | null; modules: string[] } {
  const trace = path.join(dir, `trace-${Math.random().toString(36).slice(2)}.txt`);
  fs.writeFileSync(trace, "");
  const run = spawnSync(process.execPath, ["--import", preload, CLI_PATH, ...args], {
    cwd: dir,
    env: isolatedEnv({ HOME: dir, ARBOR_HOME: home, ARBOR_MODULE_TRACE: trace }),
    encoding: "utf8",
  });
  expect(run.stderr).toMatch(stderr === "" ? /^$/ : stderr);
  const modules = fs.readFileSync(trace, "utf8").split("\n").filter(Boolean);
  expect(modules.length).toBeGreaterThan(0);
  return { code: run.status, modules };
}

/**
 * The bin is built from CommonJS chunks with the Arbor packages inlined (scripts/build-bin.mjs), so
 * which of their modules run cannot be traced from outside; the build's module graph
 * (`dist/metafile-cjs.json`) tells it instead: a module reached from `src/main.ts` by static imports
 * runs at start-up, one behind a dynamic `import()` (each command's module) only when that import runs
 * (it is in another chunk, required then).
 */
interface BuildGraph {
  inputs: Record<string, { imports: { path: string; kind: string; external?: boolean }[] }>;
}
const graph = (): BuildGraph =>
  JSON.parse(fs.readFileSync(path.join(path.dirname(CLI_PATH), "metafile-cjs.json"), "utf8")) as BuildGraph;

/** The modules reached from `from` by static imports (itself included). */
function staticClosure(from: string[]): Set<string> {
  const { inputs } = graph();
  const seen = new Set<string>();
  const queue = [...from];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    const input = inputs[file];
    if (input === undefined) throw new Error(`${file} is not in the CLI's build graph`);
    seen.add(file);
    for (const next of input.imports)
      if (!next.external && next.kind !== "dynamic-import") queue.push(next.path);
  }
  return seen;
}

/** The modules that run at start-up (`arbor --version` runs no more). */
const startupModules = () => staticClosure(["src/main.ts"]);
/** The modules that run for a command: start-up, the command's module (`src/commands/<name>.ts`) and the runtime's settings entry (see resolve-session-input.ts). */
const commandModules = (name: string) =>
  staticClosure(["src/main.ts", `src/commands/${name}.ts`, "../../packages/runtime/dist/settings/index.js"]);

const heavy = (modules: string[]) =>
  modules.filter((url) => [...HEAVY, ...HEAVY_BUILTINS].some((pattern) => pattern.test(url)));

describe("offline commands load no SDK, tokenizer, zod or node:crypto", { timeout: 60_000 }, () => {
  it.each([
    [["--version"]],
    [["inspect", EXAMPLE, "--json"]],
    [["inspect", EXAMPLE]],
    [["tree", EXAMPLE]],
    [["check", EXAMPLE]],
  ])("arbor %j", (args) => {
    const { code, modules } = traced(args);
    expect(code).toBe(0);
    expect(heavy(modules)).toEqual([]);
  });

  it("arbor --version and --help run no Arbor package but @arbor/providers (errors, redactor)", () => {
    const arborPackage =
      /packages[\\/](agent-loop|compaction|extensions|providers|runtime|session-store)[\\/]/;
    const packagesOf = (modules: Set<string>) =>
      new Set([...modules].map((file) => arborPackage.exec(file)?.[1]).filter(Boolean));
    for (const args of [["--version"], ["--help"]]) expect(traced(args).code).toBe(0);
    expect([...packagesOf(startupModules())]).toEqual(["providers"]);
    // The same walk sees the rest once a command's module is imported (the check above can fail).
    expect(packagesOf(commandModules("inspect-command")).has("runtime")).toBe(true);
  });

  it.each([["inspect-command"], ["tree-command"], ["check-command"]])(
    "the %s runs the runtime's settings entry, not its root entry nor extensions",
    (command) => {
      const runtime = [...commandModules(command)].filter((file) =>
        /packages[\\/]runtime[\\/]dist[\\/]/.test(file),
      );
      expect(runtime.some((file) => /[\\/]settings[\\/]index\.js$/.test(file))).toBe(true);
      expect(runtime.filter((file) => /[\\/]dist[\\/]index\.js$/.test(file))).toEqual([]);
      expect(
        [...commandModules(command)].filter((file) => /packages[\\/]extensions[\\/]/.test(file)),
      ).toEqual([]);
    },
  );

  it("the walk sees the runtime's root entry and extensions from the print command (the checks above can fail)", () => {
    const modules = [...commandModules("print-command")];
    expect(modules.some((file) => /packages[\\/]runtime[\\/]dist[\\/]index\.js$/.test(file))).toBe(true);
    expect(modules.some((file) => /packages[\\/]extensions[\\/]/.test(file))).toBe(true);
  });

  it("the trace sees the database driver for a postgresql:// location (the checks above can fail)", () => {
    // Port 1: nothing listens, so the run fails after loading the backend and the driver.
    const { code, modules } = traced(
      ["tree", "postgresql://127.0.0.1:1/none#x"],
      undefined,
      "Cannot connect",
    );
    expect(code).toBe(1);
    expect(heavy(modules).some((url) => /[\\/]pg[\\/]/.test(url))).toBe(true);
  });

  it("the trace sees zod when a settings file has to be validated (the check above can fail)", () => {
    const home = path.join(dir, "home-with-settings");
    fs.mkdirSync(home, { recursive: true });
    fs.writeFileSync(
      path.join(home, "settings.json"),
      JSON.stringify({ compaction: { keepRecentTokens: 4000 } }),
    );
    const { code, modules } = traced(["inspect", EXAMPLE, "--json"], home);
    expect(code).toBe(0);
    expect(heavy(modules).some((url) => /[\\/]zod[\\/]/.test(url))).toBe(true);
  });
});
