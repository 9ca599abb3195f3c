import type { AgentMessage } from "@arbor/agent-loop";
import type { FileToolMapping } from "../files/file-operations";
import { activityItems, splitPreviousDone } from "./activity-items";
import { composeGoal } from "./compose-goal";
import { composeNextSteps } from "./compose-next-steps";
import { digestMessages, type SessionDigest } from "./digest-messages";
import {
  emptyStructuredSummary,
  parseStructuredSummary,
  renderStructuredSummary,
  type StructuredSummary,
} from "./structured-summary";
import { clip, clipAtBoundary, pushUnique, squash } from "./text-utils";

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

function combine(
  previous: StructuredSummary,
  digest: SessionDigest,
  options: SummarizeOfflineOptions,
): StructuredSummary {
  const max = options.maxItemsPerSection ?? 12;
  const result = emptyStructuredSummary();
  const unresolved = digest.failures.unresolved();
  const blocking = unresolved.filter((failure) => failure.kind !== "aborted").map((failure) => failure.text);
  const resolvedTexts = new Set(digest.failures.resolved().map((failure) => failure.text));

  result.goal = composeGoal(previous.goal, digest.requests, digest.openRequest);
  mergeInto(result.constraints, [...previous.constraints, ...digest.constraints]);
  // Aggregated activity always fits; older answers give way to newer ones.
  const earlier = splitPreviousDone(previous.done);
  const activity = activityItems(earlier.activity, digest);
  mergeInto(
    result.done,
    newest(dedupe([...earlier.rest, ...digest.outcomes]), Math.max(0, max - activity.length)),
  );
  mergeInto(result.done, activity);
  if (digest.openRequest !== undefined) {
    // No new request: the earlier checkpoint's open items are still open.
    if (digest.requests.length === 0) mergeInto(result.inProgress, previous.inProgress);
    pushUnique(result.inProgress, digest.openRequest);
  }
  mergeInto(result.blocked, blocking);
  mergeInto(result.decisions, [...previous.decisions, ...digest.decisions]);
  const toolFailures = unresolved.filter((failure) => failure.kind === "tool").map((failure) => failure.text);
  result.nextSteps = composeNextSteps(digest, toolFailures, previous.nextSteps);

  mergeInto(result.critical, [
    ...previous.critical.filter((item) => !resolvedTexts.has(item)),
    ...unresolved.map((failure) => failure.text),
    ...digest.branchContext,
    ...digest.notes.map((note) => `Note: ${note}`),
  ]);
  if (options.customInstructions)
    pushUnique(result.critical, `Requested focus: ${clip(options.customInstructions, 300)}`);

  for (const key of Object.keys(result) as Array<keyof StructuredSummary>) {
    if (key !== "goal" && key !== "done") result[key] = newest(result[key], max);
  }
  return result;
}

/** Parses earlier checkpoints into one; a text without the structured format is kept as one line. */
function foldPrevious(texts: readonly string[]): StructuredSummary {
  const previous = emptyStructuredSummary();
  for (const text of texts) {
    const parsed = parseStructuredSummary(text);
    const keys = Object.keys(previous) as Array<keyof StructuredSummary>;
    if (keys.every((key) => parsed[key].length === 0)) {
      const plain = squash(text.replace(/<(read-files|modified-files)>[\s\S]*?<\/\1>/g, ""));
      if (plain) pushUnique(previous.critical, `Earlier summary: ${clipAtBoundary(plain, 1000)}`);
      continue;
    }
    for (const key of keys) mergeInto(previous[key], parsed[key]);
  }
  return previous;
}

/**
 * Writes a checkpoint in the structured format (Goal; Constraints & Preferences; Progress with Done /
 * In Progress / Blocked; Key Decisions; Next Steps; Critical Context) without any model, from:
 * - user messages: the goal (the tasks in order, the newest marked current or latest; greetings
 *   stripped) and sentences that state constraints;
 * - tool activity: files modified and read, commands run (look-around commands such as `ls` or
 *   `git status` left out), other tools used; the lead sentences of answers to requests;
 * - failures: those that never succeeded later go to Blocked and Critical Context, and tool failures
 *   also to Next Steps; those resolved later (the same tool and target, the same command or every part
 *   of it, any later model response after a provider error) get one short Done line;
 * - assistant sentences that state decisions; the last assistant message's next action into Next Steps;
 * - summaries of branches the user left: Critical Context ("explored and abandoned") and decisions;
 * - custom messages as notes; an earlier checkpoint (`previousSummary`, or compaction summaries inside
 *   the range) is parsed and folded in (its goal first, its open request and blockers carried on),
 *   newest items winning when a section is full.
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
  const earlier = messages.flatMap((message) =>
    message.role === "compactionSummary" ? [message.summary] : [],
  );
  const previous = foldPrevious([...(previousText ? [previousText] : []), ...earlier]);
  const digest = digestMessages(messages, {
    mapping: options.fileToolMapping,
    openRequest: previous.inProgress.at(-1),
    carriedFailures: previous.blocked,
  });
  return renderStructuredSummary(combine(previous, digest, options));
}
