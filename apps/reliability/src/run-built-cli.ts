import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Absolute path of the built CLI (`apps/cli/dist/main.cjs`); the hostile-input suite drives it. */
export const BUILT_CLI_PATH = resolve(dirname(fileURLToPath(import.meta.url)), "../../cli/dist/main.cjs");

/** What one run of the built CLI produced. */
export interface BuiltCliRun {
  /** Exit status, or `null` when the process ended by a signal. */
  code: number | null;
  /** The signal that ended the process, if any (our own timeout kill included). */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** `true` when the run outlived `timeoutMs` and was killed. */
  timedOut: boolean;
  /** Process id of the CLI (to look for orphaned children afterwards). */
  pid: number | undefined;
}

/** Options of {@link runBuiltCli}. */
export interface RunBuiltCliOptions {
  /** The whole environment of the child (nothing leaks in from the test process). */
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Written to stdin, which is then closed. Default: stdin closed at once. */
  input?: string;
  /** Kill the CLI (SIGKILL) after this long. Default 60 s. */
  timeoutMs?: number;
  /** Called with the child process right after it starts (to signal it or watch its memory). */
  onSpawn?: (child: ChildProcess) => void;
}

/**
 * Runs `node apps/cli/dist/main.cjs ...args` as a user would, in a fresh process with exactly the
 * given environment. Never rejects for a non-zero exit; rejects only when the process cannot start.
 * Throws at once when the CLI has not been built.
 */
export function runBuiltCli(args: readonly string[], options: RunBuiltCliOptions): Promise<BuiltCliRun> {
  if (!existsSync(BUILT_CLI_PATH)) {
    throw new Error(
      `${BUILT_CLI_PATH} is missing: build the CLI (pnpm build) before the hostile-input suite`,
    );
  }
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BUILT_CLI_PATH, ...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    options.onSpawn?.(child);
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, options.timeoutMs ?? 60_000);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr, timedOut, pid: child.pid });
    });
    child.stdin.on("error", () => {});
    child.stdin.end(options.input ?? "");
  });
}

/** A minimal environment: PATH, HOME and the given variables; no API key of the test machine leaks in. */
export function minimalEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** `true` when the output looks like an uncaught JavaScript stack trace (a crash, not a handled error). */
export function hasStackTrace(output: string): boolean {
  return (
    /\n\s+at .+\(?.+:\d+:\d+\)?/.test(output) ||
    /^(TypeError|RangeError|ReferenceError|SyntaxError)\b/m.test(output)
  );
}
