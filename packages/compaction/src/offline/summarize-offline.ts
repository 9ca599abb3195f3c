import type { AgentMessage } from "@arbor/agent-loop";
import type { FileToolMapping } from "../files/file-operations";
import { digestMessages, type SessionDigest } from "./digest-messages";
import {
  emptyStructuredSummary,
  parseStructuredSummary,
  renderStructuredSummary,
  type StructuredSummary,
} from "./structured-summary";
import { clip, pushUnique } from "./text-utils";

/** What {@link summarizeOffline} reads from a compaction preparation. */
export interface OfflineSummarySource {
  messagesToSummarize: readonly AgentMessage[];
  turnPrefixMessages?: readonly AgentMessage[];
  previousSummary?: string | undefined;
}

/** Options of {@link summarizeOffline}. */
export interface SummarizeOfflineOptions {
  /** An earlier checkpoint to fold in (overrides the source's `previousSummary`). */
  previousSummary?: string;
  /** Focus requested by the user; recorded under Critical Context. */
  customInstructions?: string;
  /** Tool-name mapping for file tracking (default: `read` / `write` / `edit`). */
  fileToolMapping?: FileToolMapping;
  /** Most items kept per section (the newest are kept). Default 12. */
  maxItemsPerSection?: number;
}

function mergeInto(target: string[], items: readonly string[]): void {
  for (const item of items) pushUnique(target, item);
}

function dedupe(items: readonly string[]): string[] {
  const result: string[] = [];
  mergeInto(result, items);
  return result;
}

function newest(items: string[], max: number): string[] {
  return items.length <= max ? items : items.slice(items.length - max);
}

function formatList(paths: readonly string[], max = 8): string {
  const shown = paths.slice(0, max).map((path) => `\`${path}\``);
  return paths.length > max ? `${shown.join(", ")} and ${paths.length - max} more` : shown.join(", ");
}

/** Tool activity of the range, aggregated into at most four items. */
function activityItems(digest: SessionDigest): string[] {
  const items: string[] = [];
  if (digest.modified.length > 0) items.push(`Modified ${formatList(digest.modified)}`);
  const readOnly = digest.read.filter((path) => !digest.modified.includes(path));
  if (readOnly.length > 0) items.push(`Read ${formatList(readOnly)}`);
  if (digest.commands.length === 1) items.push(`Ran \`${digest.commands[0]}\` successfully`);
  else if (digest.commands.length > 1) {
    const recent = newest([...digest.commands], 6);
    const more = digest.commands.length - recent.length;
    items.push(
      `Ran successfully: ${recent.map((command) => `\`${command}\``).join(", ")}${more > 0 ? ` and ${more} earlier commands` : ""}`,
    );
  }
  if (digest.otherTools.size > 0) {
    const tools = [...digest.otherTools].map(
      ([name, count]) => `\`${name}\`${count > 1 ? ` ×${count}` : ""}`,
    );
    items.push(`Also used ${tools.join(", ")}`);
  }
  return items;
}

function combine(
  previous: StructuredSummary,
  digest: SessionDigest,
  options: SummarizeOfflineOptions,
): StructuredSummary {
  const max = options.maxItemsPerSection ?? 12;
  const result = emptyStructuredSummary();
  const unresolved = digest.errors.filter((error) => !error.resolved).map((error) => error.text);

  mergeInto(result.goal, previous.goal);
  const [firstRequest, ...laterRequests] = digest.requests;
  if (result.goal.length === 0 && firstRequest !== undefined) result.goal.push(firstRequest);
  else if (firstRequest !== undefined) mergeInto(result.goal, [`Later request: ${clip(firstRequest, 240)}`]);
  mergeInto(
    result.goal,
    laterRequests.map((request) => `Later request: ${clip(request, 240)}`),
  );
  result.goal =
    result.goal.length > 6 ? [result.goal[0] as string, ...newest(result.goal.slice(1), 5)] : result.goal;

  mergeInto(result.constraints, [...previous.constraints, ...digest.constraints]);
  // Aggregated activity always fits; older answers give way to newer ones.
  const activity = activityItems(digest);
  mergeInto(
    result.done,
    newest(dedupe([...previous.done, ...digest.outcomes]), Math.max(0, max - activity.length)),
  );
  mergeInto(result.done, activity);
  if (digest.openRequest !== undefined) result.inProgress.push(digest.openRequest);
  else if (digest.requests.length === 0) mergeInto(result.inProgress, previous.inProgress);
  mergeInto(result.blocked, [...previous.blocked, ...unresolved]);
  mergeInto(result.decisions, [...previous.decisions, ...digest.decisions]);

  if (digest.openRequest !== undefined)
    result.nextSteps.push(`Continue the current request: "${clip(digest.openRequest, 240)}"`);
  for (const error of unresolved) result.nextSteps.push(`Resolve: ${error}`);
  if (digest.lastAssistantText !== undefined) {
    result.nextSteps.push(
      `Pick up from the last assistant message: "${clip(digest.lastAssistantText.trim(), 400)}"`,
    );
  }
  if (result.nextSteps.length === 0) mergeInto(result.nextSteps, previous.nextSteps);

  mergeInto(result.critical, [
    ...previous.critical,
    ...unresolved,
    ...digest.notes.map((note) => `Note: ${note}`),
  ]);
  if (options.customInstructions)
    pushUnique(result.critical, `Requested focus: ${clip(options.customInstructions, 300)}`);

  for (const key of Object.keys(result) as Array<keyof StructuredSummary>) {
    if (key !== "goal" && key !== "done") result[key] = newest(result[key], max);
  }
  return result;
}

/**
 * Writes a checkpoint in the structured format (Goal; Constraints & Preferences; Progress with Done /
 * In Progress / Blocked; Key Decisions; Next Steps; Critical Context) without any model, from:
 * - user messages: the goal (first request, later requests) and sentences that state constraints;
 * - tool activity: files modified and read, commands run, other tools used, request → answer pairs;
 * - failures (error tool results, failing commands, model errors) that did not later succeed: Blocked,
 *   Next Steps and Critical Context, with the first line of the error;
 * - assistant sentences that state decisions; the last assistant text into Next Steps;
 * - custom messages as notes; an earlier checkpoint (`previousSummary`, or summaries inside the range)
 *   is parsed and merged, newest items winning when a section is full.
 *
 * Deterministic: the same input always gives the same text. File-list tags are not included (compaction
 * appends them). Pure: never mutates, never throws on well-typed input.
 */
export function summarizeOffline(
  source: OfflineSummarySource | readonly AgentMessage[],
  options: SummarizeOfflineOptions = {},
): string {
  const isMessages = Array.isArray(source);
  const messages: readonly AgentMessage[] = isMessages
    ? (source as readonly AgentMessage[])
    : [
        ...(source as OfflineSummarySource).messagesToSummarize,
        ...((source as OfflineSummarySource).turnPrefixMessages ?? []),
      ];
  const previousText =
    options.previousSummary ?? (isMessages ? undefined : (source as OfflineSummarySource).previousSummary);
  const digest = digestMessages(messages, options.fileToolMapping);
  const previous = emptyStructuredSummary();
  for (const text of [...(previousText ? [previousText] : []), ...digest.embeddedSummaries]) {
    const parsed = parseStructuredSummary(text);
    for (const key of Object.keys(previous) as Array<keyof StructuredSummary>)
      mergeInto(previous[key], parsed[key]);
  }
  return renderStructuredSummary(combine(previous, digest, options));
}
