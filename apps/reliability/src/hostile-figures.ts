import { recordFigures } from "./figures";

/**
 * The figures every hostile-input test file reports (issue "safe by default"). The report writer
 * sums every `hostile-*` figures file into one row per area and a total line in docs/reliability.md.
 */
export interface HostileFigures {
  /** What the probes attack, one line (for example "untrusted project configuration"). */
  area: string;
  /** Probes tried (one hostile input driven through the built CLI = one probe). */
  probes: number;
  /** Runs in which any 8-character run of a canary secret appeared in any output or file. */
  secretsLeaked: number;
  /** Processes left running after the CLI exited. */
  orphanedProcesses: number;
  /** Runs whose output carried an uncaught stack trace. */
  stackTraceCrashes: number;
  /** Files created, changed or removed by a command that promises to be read-only. */
  filesChangedByReadOnlyCommands: number;
}

/** Records one hostile-input test file's figures as `hostile-<name>` (see {@link recordFigures}). */
export function recordHostileFigures(name: string, figures: HostileFigures): void {
  recordFigures(`hostile-${name}`, { ...figures });
}

/** Counts probes and bad outcomes as a test file runs; `report()` records them. */
export function createHostileTally(name: string, area: string) {
  const tally: HostileFigures = {
    area,
    probes: 0,
    secretsLeaked: 0,
    orphanedProcesses: 0,
    stackTraceCrashes: 0,
    filesChangedByReadOnlyCommands: 0,
  };
  return {
    tally,
    /** Adds one probe and any bad outcomes it had. */
    count(outcome: Partial<Omit<HostileFigures, "area" | "probes">> = {}): void {
      tally.probes += 1;
      tally.secretsLeaked += outcome.secretsLeaked ?? 0;
      tally.orphanedProcesses += outcome.orphanedProcesses ?? 0;
      tally.stackTraceCrashes += outcome.stackTraceCrashes ?? 0;
      tally.filesChangedByReadOnlyCommands += outcome.filesChangedByReadOnlyCommands ?? 0;
    },
    report(): void {
      recordHostileFigures(name, tally);
    },
  };
}
