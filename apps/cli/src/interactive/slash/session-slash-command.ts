import type { EffectiveCompactionSettings } from "@arbor/runtime";
import { describeSystemPrompt } from "../../agent/describe-system-prompt";
import { formatCost, formatInteger } from "../../format/format-number";
import { sanitizeTerminalText } from "../../format/sanitize-terminal-text";
import type { SlashCommandHandler } from "../interactive-context";

function describeCompaction(settings: EffectiveCompactionSettings): string {
  const values = `reserveTokens ${formatInteger(settings.reserveTokens)}, keepRecentTokens ${formatInteger(settings.keepRecentTokens)}${settings.enabled ? "" : " (automatic compaction off)"}`;
  const configured = settings.scaledFrom;
  if (configured === undefined) return values;
  return `${values} (scaled to fit the ${formatInteger(configured.contextWindow)}-token window; configured ${formatInteger(configured.reserveTokens)} and ${formatInteger(configured.keepRecentTokens)})`;
}

/**
 * `/session`: file, id, entries, messages, tokens, cost, context usage, the compaction settings in
 * effect, the model, and the system prompt's sections (arbor's instructions or `--system-prompt`,
 * each context file, the appended text, the environment) with their token estimates.
 */
export const sessionSlashCommand: SlashCommandHandler = async (context) => {
  const stats = context.session.getSessionStats();
  const usage = stats.contextUsage;
  const name = context.store.getSessionName();
  const rows: Array<[string, string]> = [
    ["File", stats.sessionFile ?? "(in memory, not saved)"],
    ["Id", stats.sessionId],
    ...(name ? ([["Name", name]] as Array<[string, string]>) : []),
    ["Entries", `${formatInteger(stats.entries)} (${formatInteger(stats.branchEntries)} on this branch)`],
    [
      "Messages",
      `${stats.userMessages} user, ${stats.assistantMessages} assistant, ${stats.toolCalls} tool calls, ${stats.compactions} compactions, ${stats.branchSummaries} branch summaries`,
    ],
    [
      "Tokens",
      `${formatInteger(stats.tokens.input)} in, ${formatInteger(stats.tokens.output)} out, ${formatInteger(stats.tokens.cacheRead)} cache read, ${formatInteger(stats.tokens.cacheWrite)} cache write`,
    ],
    ["Cost", formatCost(stats.cost)],
    [
      "Context",
      usage === undefined
        ? "(unknown window)"
        : usage.tokens === null
          ? `? / ${formatInteger(usage.contextWindow)} tokens (compacted; known after the next response)`
          : `${formatInteger(usage.tokens)} / ${formatInteger(usage.contextWindow)} tokens (${(usage.percent ?? 0).toFixed(1)}%), compaction above ${formatInteger(usage.threshold)}`,
    ],
    ["Compaction", describeCompaction(context.session.getCompactionSettings())],
    ["Model", `${context.session.model.provider}/${context.session.model.id}`],
  ];
  for (const [label, value] of rows) context.print(`${label.padEnd(11)}${sanitizeTerminalText(value)}`);
  const prompt = context.environment.systemPrompt;
  context.print(
    `System     ~${formatInteger(Math.ceil(prompt.text.length / 4))} tokens in ${prompt.sections.length} sections:`,
  );
  for (const line of describeSystemPrompt(prompt)) context.print(`           ${sanitizeTerminalText(line)}`);
};
