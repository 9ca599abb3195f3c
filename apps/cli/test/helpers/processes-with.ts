import fs from "node:fs";

/**
 * Pids of the live processes (zombies excluded) whose command line contains `marker`, from `/proc`:
 * the tests give each process they start a marker no other process has (`sleep 300.<random>`) and
 * look for what is left running.
 */
export function processesWith(marker: string): number[] {
  return fs
    .readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
        return (
          fs.readFileSync(`/proc/${name}/cmdline`, "utf8").replace(/\0/g, " ").includes(marker) &&
          !stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")
        );
      } catch {
        return false; // ended while we looked
      }
    })
    .map(Number);
}
