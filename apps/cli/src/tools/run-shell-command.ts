import { spawn } from "node:child_process";
import fs from "node:fs";
import { BoundedOutput, type BoundedOutputResult } from "./bounded-output";
import { startToolProcessRun } from "./tool-processes";

/** After the shell exits, how long background processes may keep its output open before they are stopped. */
const OUTPUT_GRACE_MS = 250;
/** After stopping them, how long to wait for the output to close before giving up on it. */
const CLOSE_WAIT_MS = 2_000;
/** The longest timer Node keeps (about 24.8 days); a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** How a shell command ended. */
export interface ShellCommandRun {
  output: BoundedOutputResult;
  /** The shell's exit status; `null` when it was killed. */
  exitCode: number | null;
  /** The signal that killed the shell, if any. */
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  /**
   * Processes the command left in the background that still held its output after it exited and
   * were stopped (the output would otherwise never end).
   */
  stoppedBackground: number;
}

/** What {@link runShellCommand} needs. */
export interface RunShellCommandOptions {
  cwd: string;
  /** Kill the command after this many seconds; undefined for no limit. */
  timeoutSeconds?: number;
  signal?: AbortSignal;
  /** Spill file name prefix. */
  spillPrefix?: string;
}

function pickShell(): string {
  return fs.existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";
}

/**
 * Runs `command` with `bash -c` (else `sh -c`) in its own session and process group, stdin from
 * /dev/null, stdout and stderr together through a {@link BoundedOutput} (bounded memory; the full
 * output spilled to a private file). At the timeout or on abort every process of the command is
 * killed (its group and every process carrying its environment marker, see `startToolProcessRun`).
 * Resolves once the shell has exited and its output is closed: background processes that keep the
 * output open after the shell exits are stopped after a short grace, so a stray `server &` cannot
 * hold the call forever. Rejects only when the shell cannot be started.
 */
export function runShellCommand(command: string, options: RunShellCommandOptions): Promise<ShellCommandRun> {
  const output = new BoundedOutput({ spillPrefix: options.spillPrefix ?? "bash" });
  const { signal } = options;
  if (signal?.aborted) {
    return Promise.resolve({
      output: output.finish(),
      exitCode: null,
      signal: null,
      timedOut: false,
      aborted: true,
      stoppedBackground: 0,
    });
  }
  const run = startToolProcessRun();
  return new Promise<ShellCommandRun>((resolve, reject) => {
    const child = spawn(pickShell(), ["-c", command], {
      cwd: options.cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...run.env },
    });
    if (child.pid !== undefined) run.started(child.pid);
    let timedOut = false;
    let aborted = false;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let stoppedBackground = 0;
    const timers: NodeJS.Timeout[] = [];
    const onAbort = () => {
      aborted = true;
      run.kill();
    };
    const cleanUp = () => {
      for (const timer of timers) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    if (options.timeoutSeconds !== undefined) {
      timers.push(
        setTimeout(
          () => {
            timedOut = true;
            run.kill();
          },
          Math.min(options.timeoutSeconds * 1000, MAX_TIMER_MS),
        ),
      );
    }
    signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => output.push(chunk));
    child.on("error", (error) => {
      cleanUp();
      run.kill();
      reject(error);
    });
    child.on("exit", (code, killedBy) => {
      exitCode = code;
      exitSignal = killedBy;
      // The shell is gone; anything still holding its output is a background process.
      timers.push(
        setTimeout(() => {
          stoppedBackground = run.kill();
          timers.push(
            setTimeout(() => {
              child.stdout.destroy();
              child.stderr.destroy();
              finish();
            }, CLOSE_WAIT_MS),
          );
        }, OUTPUT_GRACE_MS),
      );
    });
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      cleanUp();
      run.settle();
      resolve({
        output: output.finish(),
        exitCode,
        signal: exitSignal,
        timedOut,
        aborted,
        stoppedBackground,
      });
    };
    child.on("close", (code, killedBy) => {
      if (exitCode === null && exitSignal === null) {
        exitCode = code;
        exitSignal = killedBy;
      }
      finish();
    });
  });
}
