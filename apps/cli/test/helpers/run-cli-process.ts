import { spawn } from "node:child_process";
import { CLI_PATH } from "./cli-paths";

/** The outcome of one CLI run. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node dist/main.cjs ...args` with the given environment and working folder. */
export function runCliProcess(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string | Buffer } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], {
      cwd: options.cwd,
      env: options.env ?? {},
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? "");
  });
}

/** A minimal environment: PATH and HOME only, plus the given variables (no API keys leak in). */
export function isolatedEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: extra.HOME ?? process.env.HOME, ...extra };
}
