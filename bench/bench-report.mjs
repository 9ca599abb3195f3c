import { renderRealSessions } from "./real-sessions.mjs";
import { renderWholeProcess } from "./whole-process.mjs";

/**
 * Turns the raw worker results of bench/run.mjs into rows (median, min, max per side and the ratio
 * pi / Arbor) and renders docs/benchmarks.md. Pure functions: no I/O.
 */

/** Median, min and max of some numbers (`undefined` when there are none). */
export function summarize(values) {
  const clean = values.filter((v) => typeof v === "number" && Number.isFinite(v));
  if (clean.length === 0) return undefined;
  const sorted = [...clean].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], values: clean };
}

/** pi's and Arbor's runs summarized by `pick`, and the ratio pi / Arbor of the medians (`null` when unknown). */
export function comparedRuns(piRuns, arborRuns, pick) {
  const pi = summarize((piRuns ?? []).map(pick)) ?? null;
  const arbor = summarize((arborRuns ?? []).map(pick)) ?? null;
  return { pi, arbor, ratio: pi && arbor && arbor.median > 0 ? pi.median / arbor.median : null };
}

/** The metrics of one session size, in table order: [label, unit, pi run key, Arbor run key, pick]. */
const METRICS = [
  ["open + projection of the leaf", "ms", "pi.open", "arbor.open", (r) => r.totalMs],
  ["  of which open (read the file)", "ms", "pi.open", "arbor.open", (r) => r.openMs],
  ["  of which projection (first call after open)", "ms", "pi.open", "arbor.open", (r) => r.projectionMs],
  ["open + projection, CPU time", "ms", "pi.open", "arbor.open", (r) => r.cpuMs],
  [
    "open + projection, Arbor read-only (no writer lock; pi takes none)",
    "ms",
    "pi.open",
    "arbor.openReadOnly",
    (r) => r.totalMs,
  ],
  [
    "open + projection, Arbor with its sidecar index (pi has none)",
    "ms",
    "pi.open",
    "arbor.openWarm",
    (r) => r.totalMs,
  ],
  [
    "append + projection refresh, per entry (median)",
    "ms",
    "pi.append",
    "arbor.append",
    (r) => r.appendRefresh?.median,
  ],
  [
    "append only, per entry (median), after the same heap warm-up",
    "ms",
    "pi.append",
    "arbor.append",
    (r) => r.appendOnlyWarm?.median,
  ],
  [
    "append only, per entry (median), first appends of the process",
    "ms",
    "pi.append",
    "arbor.append",
    (r) => r.appendOnly?.median,
  ],
  [
    "  minor page faults in those first appends",
    "faults",
    "pi.append",
    "arbor.append",
    (r) => r.appendOnly?.faults,
  ],
  [
    "append only, Arbor fsync per append (durability always; pi never fsyncs)",
    "ms",
    "pi.append",
    "arbor.appendAlways",
    (r) => r.appendOnlyWarm?.median ?? r.appendOnly?.median,
  ],
  ["prepareCompaction, first call", "ms", "pi.compaction", "arbor.compaction", (r) => r.first],
  ["prepareCompaction, repeated call", "ms", "pi.compaction", "arbor.compaction", (r) => r.repeat],
  ["usage-aware token estimate, first call", "ms", "pi.tokens", "arbor.tokens", (r) => r.estimate?.firstMs],
  [
    "usage-aware token estimate, repeated call",
    "ms",
    "pi.tokens",
    "arbor.tokens",
    (r) => r.estimate?.repeatMs,
  ],
  [
    "exact token count of the context (o200k_base), first pass",
    "ms",
    undefined,
    "arbor.tokens",
    (r) => r.exact?.firstMs,
  ],
  ["exact token count, repeated pass (cached)", "ms", undefined, "arbor.tokens", (r) => r.exact?.repeatMs],
  ["peak RSS, open + projection", "MB", "pi.open", "arbor.open", (r) => r.maxRssMb],
];

/** Rows of one size: `{ metric, unit, pi, arbor, ratio }` (pi `null` when not measured). */
export function rowsOf(size) {
  return METRICS.map(([metric, unit, piKey, arborKey, pick]) => {
    const pi = piKey ? (summarize((size.runs[piKey] ?? []).map(pick)) ?? null) : null;
    const arbor = summarize((size.runs[arborKey] ?? []).map(pick)) ?? null;
    const ratio = pi && arbor && arbor.median > 0 ? pi.median / arbor.median : null;
    return { metric, unit, pi, arbor, ratio };
  });
}

/** The seams row: per-turn microseconds. */
export function seamsRow(seams) {
  const pi = summarize((seams.pi ?? []).map((r) => r.medianUs)) ?? null;
  const arbor = summarize((seams.arbor ?? []).map((r) => r.medianUs)) ?? null;
  return {
    metric: "transformContext + convertToLlm + normalization, per turn",
    unit: "µs",
    pi,
    arbor,
    ratio: pi && arbor ? pi.median / arbor.median : null,
  };
}

/** Three significant digits (appends take hundredths of a millisecond: 0.0112, not 0.011). */
const fmt = (v) =>
  v >= 100
    ? v.toFixed(0)
    : v >= 10
      ? v.toFixed(1)
      : v >= 1
        ? v.toFixed(2)
        : v > 0
          ? v.toPrecision(3)
          : v.toFixed(3);
const cell = (s, missing) => (s ? `${fmt(s.median)} (${fmt(s.min)}–${fmt(s.max)})` : missing);
const ratioCell = (r) => (r === null ? "–" : `${r >= 10 ? r.toFixed(0) : r.toFixed(1)}×`);

function table(rows, piMissing) {
  const lines = ["| metric | unit | pi 1.6.0 | Arbor | pi / Arbor |", "|---|---|---|---|---|"];
  for (const row of rows) {
    const missing = row.metric.startsWith("exact") ? "no exact counter" : piMissing;
    lines.push(
      `| ${row.metric} | ${row.unit} | ${cell(row.pi, missing)} | ${cell(row.arbor, "–")} | ${ratioCell(row.ratio)} |`,
    );
  }
  return lines;
}

/** The whole report as Markdown (the raw JSON is written next to it by the caller). */
export function renderMarkdown(result, jsonName) {
  const librarySizes = result.sizes.filter((size) => Object.keys(size.runs ?? {}).length > 0);
  const { meta } = result;
  const piMissing = meta.piAvailable ? "–" : "pi not installed";
  const lines = [
    "# Benchmarks: Arbor vs pi 1.6.0",
    "",
    `Generated by \`pnpm bench\` (\`node bench/run.mjs${meta.args.length ? ` ${meta.args.join(" ")}` : ""}\`) on ${meta.date}; raw results in [${jsonName}](${jsonName}).`,
    `Machine: ${meta.cpus} × ${meta.cpu}, ${meta.memGb} GB RAM, Node ${meta.node}; 1-minute load average ${meta.loadBefore.toFixed(1)} → ${meta.loadAfter.toFixed(1)} during the run (the machine is shared, so wall times are noisy; the CPU-time row is steadier).`,
    ...(meta.pageFaultUs === undefined
      ? []
      : [
          `A first touch of a fresh memory page (a minor page fault) costs ${meta.pageFaultUs.toFixed(1)} µs on this machine (\`bench/page-fault-cost.mjs\`). pi touches far more fresh memory than Arbor (see the page-fault rows), so the ratios are larger where faults are dear: on an earlier VM a fault cost 10.5 µs and \`inspect\` at 100k measured 9.7×; compare runs of different machines with this figure in mind.`,
        ]),
    meta.piAvailable
      ? `pi ${meta.piVersion} ran from \`${meta.piDir}\` (deep imports of its session and compaction modules, which load on Node 20).`
      : `**pi was not available** at \`${meta.piDir}\` (run without \`--no-install\` to install it): only Arbor was measured.`,
    "",
    "Method. Sessions are generated by `bench/generate-session.mjs` (pi v3 format, seed 1, ~1.9 KB per entry:",
    "branches, compactions, context edits, branch summaries, images, tool output with quotes and non-ASCII",
    "text). Both sides run on the same files in the same run, every measurement in a fresh Node process,",
    "pi and Arbor alternating; each cell is the **median (min–max)** of the repetitions; the ratio is",
    "pi / Arbor of the medians (above 1: Arbor is faster or smaller).",
    "",
    "- *open*, *projection*, *append*, *peak RSS*: `bench/session-store-worker.mjs` — pi `SessionManager.open` +",
    "  `buildSessionProjection()`; Arbor `openSessionStore` (no sidecar index unless stated) + `getProjection()`.",
    "  Append: one message appended then the projection rebuilt, 200 times (100 at 100k, 20 at 1M), on a copy;",
    "  then as many plain appends (the first appends of the process), then the same heap warm-up on both sides",
    "  (~64 MB of short-lived objects: a fresh process's young generation has pages never touched, and pi's",
    "  refresh phase has touched them, Arbor's has not) and as many plain appends again; three append processes",
    "  per side and repetition.",
    "  Peak RSS is `process.resourceUsage().maxRSS` of the open + projection process.",
    "- *prepareCompaction*: `packages/compaction/bench/prepare-compaction.bench.mjs --worker` on the branch of",
    "  the last entry, after a full GC and a 1 s pause; both sides must return the same cut point.",
    "- *token estimate*: `bench/tokens-worker.mjs` — `estimateProjectedContextTokens(projection, branch)` on the",
    "  leaf's projection (both sides must return the same count); *exact count*: js-tiktoken `o200k_base` over",
    "  every projected message through `@arbor/compaction/tiktoken` (pi has no exact counter; the first",
    "  pass excludes loading the tokenizer, reported in the JSON as `loadMs`).",
    "- *seams*: `bench/seams-worker.mjs` — one turn's context preparation on the last 1,000 messages of a",
    "  generated session's path: Arbor `convertToLlm` + `normalizeContext`; pi `convertToLlm` + pi-ai's",
    "  `transformMessages` (what pi runs per request); identity `transformContext` on both.",
    "",
  ];
  if (meta.piAvailable && result.sizes.some((size) => size.wholeProcess)) {
    lines.push(renderWholeProcess(result), "## Library, in-process", "");
  }
  if (meta.piAvailable && librarySizes.length > 0) {
    lines.push(
      "## Summary: pi / Arbor by session size",
      "",
      "Above 1: Arbor is faster (or uses less memory) by that factor; below 1: pi is.",
      "",
      `| metric | ${librarySizes.map((size) => `${size.entries.toLocaleString("en-US")} entries`).join(" | ")} |`,
      `|---|${librarySizes.map(() => "---").join("|")}|`,
    );
    const perSize = librarySizes.map((size) => rowsOf(size));
    perSize[0]?.forEach((row, index) => {
      if (row.metric.startsWith("exact")) return;
      lines.push(
        `| ${row.metric.trim()} | ${perSize.map((rows) => ratioCell(rows[index]?.ratio ?? null)).join(" | ")} |`,
      );
    });
    if (result.seams)
      lines.push(
        `| loop seams per turn (1,000 messages) | ${ratioCell(seamsRow(result.seams).ratio)} (size-independent) |`,
      );
    lines.push("");
  }
  for (const size of librarySizes) {
    lines.push(
      `## ${size.entries.toLocaleString("en-US")} entries (${size.fileMb.toFixed(1)} MB, leaf branch ${size.branchLength?.toLocaleString("en-US") ?? "?"} entries, ${size.reps} run${size.reps === 1 ? "" : "s"})`,
      "",
    );
    if (size.date && size.date !== meta.date)
      lines.push(`Measured by another run (${size.date}) and kept: this run did not include this size.`, "");
    lines.push(...table(rowsOf(size), piMissing), "");
    if (size.checks.length > 0) lines.push(...size.checks.map((c) => `- ${c}`), "");
  }
  lines.push(...renderRealSessions(result.realSessions));
  if (!result.seams) return lines.join("\n");
  lines.push(
    `## Agent loop seams (${result.seams.messages} messages, ${result.seams.reps} run${result.seams.reps === 1 ? "" : "s"} of ${result.seams.iterations} turns)`,
    "",
    ...table([seamsRow(result.seams)], piMissing),
    "",
  );
  return lines.join("\n");
}
