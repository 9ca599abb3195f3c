import { readFileSync } from "node:fs";

/**
 * Watches a process's peak resident memory (`VmHWM` in `/proc/<pid>/status`, the kernel's
 * high-water mark) by sampling it every `intervalMs` while the process lives. `peakBytes()` returns
 * the highest value seen; since the mark never goes down, the last sample before the process exited
 * holds every earlier peak. Returns 0 where `/proc` does not exist.
 */
export function watchPeakRss(pid: number, intervalMs = 20) {
  let peak = 0;
  const sample = () => {
    try {
      const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (match) peak = Math.max(peak, Number(match[1]) * 1024);
    } catch {
      // The process has exited.
    }
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    /** The highest peak seen so far, in bytes. */
    peakBytes(): number {
      return peak;
    },
    /** Stops sampling. */
    stop(): void {
      clearInterval(timer);
    },
  };
}
