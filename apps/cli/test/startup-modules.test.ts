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
 * `node:crypto` (every built-in module loaded is listed too).
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

  it("arbor --version and --help load no Arbor package but @arbor/providers (errors, redactor)", () => {
    const arborPackage =
      /(?:packages|@arbor)[\\/](agent-loop|compaction|extensions|providers|runtime|session-store)[\\/]/;
    for (const args of [["--version"], ["--help"]]) {
      const { code, modules } = traced(args);
      expect(code).toBe(0);
      const loaded = new Set(modules.map((url) => arborPackage.exec(url)?.[1]).filter(Boolean));
      expect([...loaded]).toEqual(["providers"]);
    }
    // The same trace sees the rest once a command runs (the check above can fail).
    const { modules } = traced(["inspect", EXAMPLE, "--json"]);
    expect(modules.some((url) => /(?:packages|@arbor)[\\/]runtime[\\/]/.test(url))).toBe(true);
  });

  it.each([[["inspect", EXAMPLE, "--json"]], [["tree", EXAMPLE]], [["check", EXAMPLE]]])(
    "arbor %j loads the runtime's settings entry, not its root entry nor extensions",
    (args) => {
      const { code, modules } = traced(args);
      expect(code).toBe(0);
      const runtime = modules.filter((url) => /(?:packages|@arbor)[\\/]runtime[\\/]dist[\\/]/.test(url));
      expect(runtime.some((url) => /[\\/]settings[\\/]index\.js$/.test(url))).toBe(true);
      expect(runtime.filter((url) => /[\\/]dist[\\/]index\.js$/.test(url))).toEqual([]);
      expect(modules.filter((url) => /(?:packages|@arbor)[\\/]extensions[\\/]/.test(url))).toEqual([]);
    },
  );

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
