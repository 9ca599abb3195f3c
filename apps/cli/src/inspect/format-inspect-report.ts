import type { AgentMessage } from "@arbor/agent-loop";
import { formatInteger } from "../format/format-number";
import { previewMessage } from "../format/message-preview";
import type { InspectMessageRef, InspectReport } from "./inspect-report";

/** Facts about the session shown by the text report besides the JSON report's fields. */
export interface InspectTextContext {
  file: string;
  name: string | undefined;
  entryCount: number;
  /** Entries on the path from the root to the leaf (`getPathLength`). */
  pathLength: number;
  leafSource: "file" | "flag";
  model: string | undefined;
  thinkingLevel: string;
  labels: ReadonlyArray<{ targetId: string; label: string }>;
  /** Where `report.compactionSettings.keepRecentTokens` came from ("the default", ...). */
  keepRecentTokensSource: string;
  /** The projected messages, in the order of `report.context.messages` (for previews). */
  messages: readonly AgentMessage[];
  /** Terminal width for previews. */
  width: number;
  /** One line per system prompt section (`describeSystemPrompt`). */
  systemPromptLines: readonly string[];
}

function sumTokens(report: InspectReport, refs: readonly InspectMessageRef[]): number {
  // The refs are a subsequence of the context messages; match them in order.
  let total = 0;
  let cursor = 0;
  const messages = report.context.messages;
  for (const ref of refs) {
    while (cursor < messages.length) {
      const message = messages[cursor++];
      if (message && message.entryId === ref.entryId && message.role === ref.role) {
        total += message.estimatedTokens;
        break;
      }
    }
  }
  return total;
}

function span(refs: readonly InspectMessageRef[]): string {
  if (refs.length === 0) return "";
  const first = refs[0]?.entryId;
  const last = refs[refs.length - 1]?.entryId;
  return first === last ? ` (${first})` : ` (${first} … ${last})`;
}

function roleOf(report: InspectReport, entryId: string): string {
  return report.context.messages.find((message) => message.entryId === entryId)?.role ?? "entry";
}

function plural(count: number, word: string): string {
  return `${formatInteger(count)} ${word}${count === 1 ? "" : "s"}`;
}

function describeThreshold(report: InspectReport): string {
  const { reserveTokens, contextWindow, threshold, scaledFrom } = report.compactionSettings;
  if (contextWindow === null || threshold === null) {
    return `unknown: the model's context window is unknown (not built in, not in your models file); reserveTokens ${formatInteger(reserveTokens)}`;
  }
  const base = `compaction above ${formatInteger(threshold)} tokens (the ${formatInteger(contextWindow)}-token window - reserveTokens ${formatInteger(reserveTokens)})`;
  if (scaledFrom === null) return base;
  return `${base}; the settings (reserveTokens ${formatInteger(scaledFrom.reserveTokens)}, keepRecentTokens ${formatInteger(scaledFrom.keepRecentTokens)}) do not fit the window and are scaled down`;
}

/** Renders the readable form of `arbor inspect`. */
export function formatInspectReport(report: InspectReport, context: InspectTextContext): string {
  const lines: string[] = [];
  const field = (label: string, value: string) =>
    lines.push(`${label.padEnd(label.startsWith("  ") ? 16 : 10)}${value}`);
  field("Session", `${report.sessionId} (version ${report.version ?? "1, no version field"})`);
  field("File", context.file);
  if (context.name) field("Name", context.name);
  field(
    "Entries",
    `${formatInteger(context.entryCount)} in the file, ${formatInteger(context.pathLength)} on the path to the leaf`,
  );
  field(
    "Leaf",
    report.leafId === null
      ? "(none: empty session)"
      : `${report.leafId} (${context.leafSource === "flag" ? "from --leaf" : "last entry in file order"})`,
  );
  field("Model", `${context.model ?? "(none recorded)"}, thinking ${context.thinkingLevel}`);
  const { linesValidated, linesInFile } = report.validation;
  field(
    "Checked",
    linesValidated === linesInFile
      ? `all ${plural(linesInFile, "line")}`
      : `${formatInteger(linesValidated)} of ${plural(linesInFile, "line")} (what this report reads; \`arbor check\` checks every line)`,
  );
  for (const { targetId, label } of context.labels) field("Label", `${label} → ${targetId}`);
  field("Threshold", describeThreshold(report));

  const prompt = report.systemPrompt;
  lines.push(
    "",
    `System prompt (not stored in the session: what a run in ${prompt.cwd} would send now), ~${formatInteger(prompt.estimatedTokens)} tokens:`,
    ...context.systemPromptLines.map((line) => `       ${line}`),
  );
  const messages = report.context.messages;
  lines.push(
    "",
    `Context: ${plural(messages.length, "message")}, ~${formatInteger(report.context.estimatedTokens)} tokens (usage-aware estimate)`,
  );
  const previewWidth = Math.max(30, context.width - 36);
  messages.forEach((message, index) => {
    const source = context.messages[index];
    const preview = source ? previewMessage(source, previewWidth) : "";
    lines.push(
      `${String(index + 1).padStart(5)}  ${message.entryId.padEnd(8)}  ${message.role.padEnd(17)}${formatInteger(message.estimatedTokens).padStart(7)}  ${preview}`,
    );
  });

  lines.push("");
  const budget = `keepRecentTokens ${formatInteger(report.compactionSettings.keepRecentTokens)}, ${context.keepRecentTokensSource}`;
  const compaction = report.compaction;
  if (compaction === null) {
    lines.push(
      `Next compaction (${budget}): nothing to compact; the recent-token budget covers the whole context.`,
    );
    return `${lines.join("\n")}\n`;
  }
  lines.push(`Next compaction (${budget}):`);
  const keptTokens = messages
    .slice(messages.findIndex((message) => message.entryId === compaction.firstKeptEntryId))
    .reduce((sum, message) => sum + message.estimatedTokens, 0);
  const cut = `${compaction.firstKeptEntryId} (${roleOf(report, compaction.firstKeptEntryId)})`;
  field(
    "  cut at",
    compaction.isSplitTurn && compaction.turnStartEntryId
      ? `${cut}, inside the turn that starts at ${compaction.turnStartEntryId} (${roleOf(report, compaction.turnStartEntryId)})`
      : `${cut}, at a turn boundary`,
  );
  field(
    "  summarize",
    `${plural(compaction.messagesToSummarize.length, "message")}, ~${formatInteger(sumTokens(report, compaction.messagesToSummarize))} tokens${span(compaction.messagesToSummarize)}`,
  );
  if (compaction.isSplitTurn) {
    field(
      "  prefix",
      `${plural(compaction.turnPrefixMessages.length, "message")} of the split turn, ~${formatInteger(sumTokens(report, compaction.turnPrefixMessages))} tokens${span(compaction.turnPrefixMessages)}`,
    );
  }
  field("  keep", `from ${compaction.firstKeptEntryId} on, ~${formatInteger(keptTokens)} tokens`);
  field("  before", `~${formatInteger(compaction.tokensBefore)} tokens`);
  field(
    "  previous",
    compaction.hasPreviousSummary ? "a previous summary is updated" : "no previous summary",
  );
  field("  read", compaction.readFiles.length > 0 ? compaction.readFiles.join(", ") : "(none)");
  field("  modified", compaction.modifiedFiles.length > 0 ? compaction.modifiedFiles.join(", ") : "(none)");
  return `${lines.join("\n")}\n`;
}
