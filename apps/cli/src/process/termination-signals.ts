import os from "node:os";
import { killAllToolProcesses } from "../tools/tool-processes";

/** The signals that end arbor: `kill`, a closed terminal, Ctrl-C outside raw mode. */
export const TERMINATION_SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/** How long a command may take to stop gracefully after a signal before the process exits anyway. */
const GRACE_MS = 3_000;

const stoppers = new Set<(signal: NodeJS.Signals) => void>();
let received: NodeJS.Signals | undefined;
let installed = false;

/** The exit code for a signal: 128 + its number (SIGINT 130, SIGTERM 143, SIGHUP 129). */
export function exitCodeForSignal(signal: NodeJS.Signals): number {
  return 128 + (os.constants.signals[signal] ?? 1);
}

/** The termination signal this process received, if any. */
export function receivedTerminationSignal(): NodeJS.Signals | undefined {
  return received;
}

function onSignal(signal: NodeJS.Signals): void {
  // First and synchronously: no tool process may outlive arbor, whatever happens next.
  killAllToolProcesses();
  const code = exitCodeForSignal(signal);
  if (received !== undefined || stoppers.size === 0) {
    // A second signal, or nothing to stop gracefully: exit now (exit hooks release the session lock).
    process.exit(code);
  }
  received = signal;
  // The terminal may be gone (SIGHUP): a failed write must not crash the shutdown.
  process.stdout.on("error", () => undefined);
  process.stderr.on("error", () => undefined);
  for (const stop of [...stoppers]) stop(signal);
  setTimeout(() => process.exit(code), GRACE_MS);
}

/**
 * Installs the process's SIGINT, SIGTERM and SIGHUP handlers (once; later calls do nothing). On a
 * signal: every tool process is killed at once, then the commands registered with
 * {@link onTerminationSignal} are asked to stop (abort the run, close the session); the process
 * exits with 128 + the signal's number when they are done, or after 3 s, or at a second signal.
 * With nothing registered it exits at once. Exiting runs the exit hooks, which release session locks
 * and remove the tool output folder.
 */
export function installTerminationHandlers(): void {
  if (installed) return;
  installed = true;
  for (const signal of TERMINATION_SIGNALS) process.on(signal, () => onSignal(signal));
}

/**
 * Registers `stop`, called (once) when a termination signal arrives while the caller runs; it should
 * abort the current work and let the command return. Returns the function that unregisters it.
 */
export function onTerminationSignal(stop: (signal: NodeJS.Signals) => void): () => void {
  stoppers.add(stop);
  return () => {
    stoppers.delete(stop);
  };
}
