import { sanitizeTerminalText } from "../format/sanitize-terminal-text";
import type { ReplayReport } from "./replay-session";

const integer = (value: number) => Math.round(value).toLocaleString("en-US");

/** The text form of `arbor replay`: one row per figure, aligned. Pure. */
export function formatReplayReport(file: string, report: ReplayReport & { unreadLines?: number }): string {
  const rows: Array<[string, string]> = [
    ["policy", report.policy],
    ["model", `${report.model} (window ${integer(report.contextWindow)})`],
    ["prompts", integer(report.prompts)],
    ["requests", integer(report.requests)],
    ["input tokens (uncached)", integer(report.inputTokens)],
    ["cache write tokens", integer(report.cacheWriteTokens)],
    ["cache read tokens", integer(report.cacheReadTokens)],
    ["output tokens", integer(report.outputTokens)],
    [
      "summary calls",
      `${integer(report.summaryCalls)} (${integer(report.summaryInputTokens)} in, ${integer(report.summaryOutputTokens)} out)`,
    ],
    ["context edits", integer(report.contextEdits)],
    ["cost (USD)", report.costUsd.toFixed(4)],
    ["peak context tokens", integer(report.peakContextTokens)],
    ["requests within 5% of window", integer(report.nearWindowRequests)],
    ["overflows", integer(report.overflows)],
    ["compaction loops", integer(report.loops)],
    [
      "retention",
      `${report.retention.toFixed(3)} (${report.retentionFacts.visible} of ${report.retentionFacts.total} facts)`,
    ],
  ];
  if (report.unmatchedRequests > 0)
    rows.push(["requests without a recorded answer", integer(report.unmatchedRequests)]);
  if (report.stoppedRuns > 0) rows.push(["runs stopped by the session", integer(report.stoppedRuns)]);
  if ((report.unreadLines ?? 0) > 0)
    rows.push(["unreadable lines skipped", integer(report.unreadLines ?? 0)]);
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines = rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`);
  return `Replay of ${sanitizeTerminalText(file)}\n${lines.join("\n")}\n`;
}
