import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** How a worker process ended. */
export interface WorkerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link spawnWorker}. */
export interface SpawnWorkerOptions {
  /** Called with each complete stdout line as it arrives (for `ready`-style handshakes). */
  onLine?: (line: string, child: ChildProcess) => void;
  /** SIGKILL the worker if it has not ended after this many ms (a hung worker fails the test). Default 30 000. */
  timeoutMs?: number;
}

/** Absolute path of a script in `apps/reliability/workers`. */
export function workerPath(name: string): string {
  return fileURLToPath(new URL(`../workers/${name}`, import.meta.url));
}

/**
 * Runs `workers/<name>` in a fresh Node process with `args` as its one JSON argument. Resolves when
 * the process has ended, however it ended (exit code or signal); never rejects for a failing worker,
 * so the caller decides what an ending means. stdin is a pipe the caller may write to.
 */
export function spawnWorker(
  name: string,
  args: unknown,
  options: SpawnWorkerOptions = {},
): { child: ChildProcess; exit: Promise<WorkerExit> } {
  const child = spawn(process.execPath, [workerPath(name), JSON.stringify(args)], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let pending = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    pending += chunk;
    let newline = pending.indexOf("\n");
    while (newline >= 0) {
      options.onLine?.(pending.slice(0, newline), child);
      pending = pending.slice(newline + 1);
      newline = pending.indexOf("\n");
    }
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 30_000);
  const exit = new Promise<WorkerExit>((resolve) => {
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, exit };
}
