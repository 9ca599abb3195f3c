import { readdirSync, readFileSync } from "node:fs";

/**
 * Pids of the live processes (zombies excluded) whose command line contains `marker`, read from
 * `/proc`. Used to count processes a run left behind: give every process a probe starts a marker
 * no other process has (for example `sleep 301.7319`). Empty where `/proc` does not exist.
 */
export function findProcessesByCommandLine(marker: string): number[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const commandLine = readFileSync(`/proc/${name}/cmdline`, "utf8").replace(/\0/g, " ");
      if (!commandLine.includes(marker)) continue;
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) continue;
      found.push(Number(name));
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

/**
 * Waits (up to `timeoutMs`) for every process with `marker` in its command line to end, and returns
 * those still running then: the orphans. Killed processes take a moment to go away, so a probe waits
 * on this condition rather than looking once.
 */
export async function waitForOrphans(marker: string, timeoutMs = 3_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = findProcessesByCommandLine(marker);
    if (found.length === 0 || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
