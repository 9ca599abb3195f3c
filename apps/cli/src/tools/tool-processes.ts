import { nodeCrypto } from "../internal/node-crypto";
import { findMarkedProcesses } from "./find-marked-processes";

/** The environment variable that marks every process a tool command starts (inherited by its children). */
export const TOOL_RUN_VARIABLE = "ARBOR_TOOL_RUN";

let prefix: string | undefined;
/** `<pid>-<random>`, drawn on first use (a command that runs no tool never loads `node:crypto`). */
function processPrefix(): string {
  prefix ??= `${process.pid}-${nodeCrypto().randomBytes(4).toString("hex")}`;
  return prefix;
}
let runCount = 0;
/** Process groups of commands that may still have members, by run token. */
const groups = new Map<string, number>();
let exitHookInstalled = false;

/** One command's processes: its environment marker and, once spawned, its process group. */
export interface ToolProcessRun {
  /** Unique for this run: `<pid>-<random>-<n>`. */
  readonly token: string;
  /** The environment entries to give the command (the marker). */
  readonly env: Record<string, string>;
  /** Records the command's process group (its shell's pid, spawned as a group leader). */
  started(pgid: number): void;
  /**
   * Kills (SIGKILL) every process of the run: the process group and every process carrying the
   * marker, wherever it moved (`setsid`, double fork). Returns how many marked processes were found.
   */
  kill(): number;
  /** Forgets the run once its process group is empty; a group with members left stays tracked. */
  settle(): void;
}

function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is empty
  }
}

function killAll(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/**
 * Starts tracking a tool command's processes. Every run is also killed by
 * {@link killAllToolProcesses} (which runs on process exit), so nothing a command started outlives
 * arbor, except a process that both left the process group and cleared its environment.
 */
export function startToolProcessRun(): ToolProcessRun {
  runCount += 1;
  const token = `${processPrefix()}-${runCount}`;
  installExitHook();
  return {
    token,
    env: { [TOOL_RUN_VARIABLE]: token },
    started(pgid) {
      groups.set(token, pgid);
    },
    kill() {
      const marked = findMarkedProcesses(`${TOOL_RUN_VARIABLE}=${token}\0`);
      const pgid = groups.get(token);
      if (pgid !== undefined) signalGroup(pgid, "SIGKILL");
      killAll(marked);
      return marked.length;
    },
    settle() {
      const pgid = groups.get(token);
      if (pgid !== undefined && !signalGroup(pgid, 0)) groups.delete(token);
    },
  };
}

/**
 * Kills (SIGKILL) every process any tool command of this arbor process started and that is still
 * running: background processes left by finished commands included. Synchronous, never throws;
 * called on SIGTERM/SIGHUP/SIGINT and on exit.
 */
export function killAllToolProcesses(): void {
  // Before the first run no process can carry this arbor's marker (its random part is not drawn yet).
  const marked = prefix === undefined ? [] : findMarkedProcesses(`${TOOL_RUN_VARIABLE}=${prefix}-`);
  for (const pgid of groups.values()) signalGroup(pgid, "SIGKILL");
  groups.clear();
  killAll(marked);
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", killAllToolProcesses);
}
