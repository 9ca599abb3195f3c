/**
 * Turns a StrykerJS JSON report (mutation-testing-report-schema) into the compact summary that
 * `pnpm mutation` commits in docs/mutation.json: counts and score per file, and every mutant that
 * no test killed, with its place, mutator, original text and replacement.
 */

/** Statuses no test detected (a mutant that no test even runs is a survivor too). */
const UNDETECTED = new Set(["Survived", "NoCoverage"]);

/**
 * The score: detected / (detected + undetected), in percent with one decimal; `null` when there is
 * no valid mutant. Detected: killed or timed out (the mutant made the tests hang). Undetected:
 * survived or not covered by any test. Compile and runtime errors and ignored mutants do not count.
 */
export function mutationScore(detected, undetected) {
  const total = detected + undetected;
  return total === 0 ? null : Math.round((detected / total) * 1000) / 10;
}

function snippet(source, location) {
  const lines = source.split("\n");
  const { start, end } = location;
  if (start.line === end.line) return lines[start.line - 1]?.slice(start.column - 1, end.column - 1) ?? "";
  const first = lines[start.line - 1]?.slice(start.column - 1) ?? "";
  return `${first} …`;
}

function shorten(text, max = 100) {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * Summarizes one package's report. `files` maps each mutated file (as the report names it,
 * relative to the package) to its counts; `survivors` lists the undetected mutants in file order.
 */
export function summarizeMutationReport(report) {
  const files = {};
  const survivors = [];
  let detected = 0;
  let undetected = 0;
  for (const [file, result] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
    const counts = { killed: 0, timeout: 0, survived: 0, noCoverage: 0, other: 0 };
    const mutants = [...result.mutants].sort(
      (a, b) =>
        a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column,
    );
    for (const mutant of mutants) {
      if (mutant.status === "Killed") counts.killed++;
      else if (mutant.status === "Timeout") counts.timeout++;
      else if (mutant.status === "Survived") counts.survived++;
      else if (mutant.status === "NoCoverage") counts.noCoverage++;
      else counts.other++;
      if (UNDETECTED.has(mutant.status)) {
        survivors.push({
          file,
          line: mutant.location.start.line,
          column: mutant.location.start.column,
          status: mutant.status,
          mutator: mutant.mutatorName,
          original: shorten(snippet(result.source, mutant.location)),
          replacement: shorten(mutant.replacement ?? ""),
        });
      }
    }
    const fileDetected = counts.killed + counts.timeout;
    const fileUndetected = counts.survived + counts.noCoverage;
    detected += fileDetected;
    undetected += fileUndetected;
    files[file] = { ...counts, score: mutationScore(fileDetected, fileUndetected) };
  }
  return { detected, undetected, score: mutationScore(detected, undetected), files, survivors };
}
