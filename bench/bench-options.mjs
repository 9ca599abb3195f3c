/**
 * What the two benchmark drivers (bench/run.mjs, bench/session-store.bench.mjs) share: their command
 * line (`--sizes a,b,c`, `--huge`, `--reps N`) and the cached generated sessions they measure.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeSessionFile } from "./generate-session.mjs";

/**
 * The built CLI of the checkout at `root`: `apps/cli/dist/main.cjs` (CommonJS chunks since
 * 2026-12-03), or `main.js` in a build of an older commit (the `--old` builds of the comparisons).
 */
export function builtCliPath(root) {
  const cjs = join(root, "apps", "cli", "dist", "main.cjs");
  return existsSync(cjs) ? cjs : join(root, "apps", "cli", "dist", "main.js");
}

/** Where generated sessions are cached (`ARBOR_BENCH_DIR`, default /tmp/arbor-bench). */
export const BENCH_WORK_DIR = process.env.ARBOR_BENCH_DIR ?? "/tmp/arbor-bench";

/** The flags and options every driver understands (handled here). */
const SHARED_FLAGS = ["--huge"];
const SHARED_OPTIONS = ["--sizes", "--reps"];

/**
 * Parses a benchmark driver's command line. `spec.script` is the driver's `import.meta.url`:
 * `--help` / `-h` prints its leading doc comment and exits 0. `spec.flags` and `spec.options` list
 * what the driver reads besides the shared `--huge`, `--sizes a,b,c` and `--reps N`; anything else
 * (a misspelt option, a stray word) is refused with exit code 2 before any work starts, so a typo
 * never starts a long run with the defaults. `sizes` defaults to 1k, 10k, 100k (+1M with `--huge`);
 * `repsFor(n)` and `appendCountFor(n)` give fewer repetitions and appends on the big sizes.
 */
export function parseBenchOptions(argv, spec = {}) {
  const args = argv.filter((a) => a !== "--");
  const flags = new Set([...SHARED_FLAGS, ...(spec.flags ?? [])]);
  const options = new Set([...SHARED_OPTIONS, ...(spec.options ?? [])]);
  if (spec.script !== undefined && (args.includes("--help") || args.includes("-h"))) {
    process.stdout.write(`${usageOf(spec.script)}\n`);
    process.exit(0);
  }
  if (spec.script !== undefined) {
    const problem = findUnknownArgument(args, flags, options);
    if (problem !== undefined) {
      process.stderr.write(`${problem} (see --help)\n`);
      process.exit(2);
    }
  }
  const flag = (name) => args.includes(name);
  const option = (name) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const sizes = option("--sizes")?.split(",").map(Number) ?? [
    1_000,
    10_000,
    100_000,
    ...(flag("--huge") ? [1_000_000] : []),
  ];
  if (sizes.some((n) => !Number.isInteger(n) || n < 1)) {
    process.stderr.write(`--sizes wants entry counts such as 1000,10000, not ${option("--sizes")}\n`);
    process.exit(2);
  }
  return {
    /** The arguments, without a `--` separator. */
    args,
    flag,
    option,
    sizes,
    repsFor: (n) => Number(option("--reps") ?? (n >= 1_000_000 ? 2 : n >= 100_000 ? 3 : 5)),
    appendCountFor: (n) => (n >= 1_000_000 ? 20 : n >= 100_000 ? 100 : 200),
  };
}

/** The first argument that is neither a known flag nor a known option with its value, described. */
function findUnknownArgument(args, flags, options) {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (flags.has(a)) continue;
    if (options.has(a)) {
      if (i + 1 >= args.length || args[i + 1].startsWith("--")) return `${a} needs a value`;
      i++;
      continue;
    }
    return a.startsWith("-") ? `unknown option ${a}` : `unexpected argument ${JSON.stringify(a)}`;
  }
  return undefined;
}

/** The leading doc comment of the script at `url`, without its comment markers. */
function usageOf(url) {
  const text = readFileSync(new URL(url), "utf8");
  const match = /\/\*\*([\s\S]*?)\*\//.exec(text);
  if (match === null) return "(this script has no usage comment)";
  return match[1]
    .split("\n")
    .map((line) => line.replace(/^\s*\* ?/, ""))
    .join("\n")
    .trim();
}

/**
 * The generated pi-format session of `n` entries (seed 1), made once and cached in
 * {@link BENCH_WORK_DIR}; Arbor's sidecar index and any stale lock are removed so every run opens it
 * cold. `onGenerated` hears about a new file (path, bytes, seconds).
 */
export function ensureBenchSession(n, onGenerated = () => {}) {
  mkdirSync(BENCH_WORK_DIR, { recursive: true });
  const file = join(BENCH_WORK_DIR, `session-${n}-seed1.jsonl`);
  const done = `${file}.complete`;
  // The marker holds the file's size: a file of another size was changed after it was written (a
  // run that appended to it instead of to a copy) and is not the session of `n` entries any more.
  const intact =
    existsSync(done) && existsSync(file) && statSync(file).size === Number(readFileSync(done, "utf8"));
  if (!intact) {
    const started = performance.now();
    const { bytes } = writeSessionFile(file, { entries: n, seed: 1 });
    writeFileSync(done, String(bytes));
    onGenerated(file, bytes, (performance.now() - started) / 1000);
  }
  for (const suffix of [".idx", ".lock"]) rmSync(file + suffix, { force: true });
  return file;
}
