import fs from "node:fs";

/**
 * Pids of the processes whose environment holds an entry starting with `marker` (for example
 * `ARBOR_TOOL_RUN=1234-ab-7\0` for one run, or `ARBOR_TOOL_RUN=1234-ab-` for every run of this
 * process), found through `/proc/<pid>/environ`. Children inherit the environment, so this finds a
 * command's descendants even after they started their own session or process group, or were
 * reparented. Only processes of the same user are readable; the calling process is never listed.
 * Returns an empty list where `/proc` does not exist (macOS). Never throws.
 */
export function findMarkedProcesses(marker: string): number[] {
  let names: string[];
  try {
    names = fs.readdirSync("/proc");
  } catch {
    return [];
  }
  const needle = Buffer.from(marker, "utf8");
  const separated = Buffer.concat([Buffer.from([0]), needle]);
  const found: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    let environ: Buffer;
    try {
      environ = fs.readFileSync(`/proc/${name}/environ`);
    } catch {
      continue; // gone, or another user's process
    }
    if (environ.subarray(0, needle.length).equals(needle) || environ.includes(separated)) found.push(pid);
  }
  return found;
}
