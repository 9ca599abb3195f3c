import type { AgentMessage } from "@arbor/agent-loop";
import {
  type CompactionPreparation,
  computeFileLists,
  estimateProjectedContextTokens,
  estimateTokens,
  prepareCompaction,
} from "@arbor/compaction";
import type { ProjectedSessionEntry, SessionEntry, SessionProjection } from "@arbor/session-store";
import type { OfflineCompaction } from "../commands/resolve-offline-compaction";
import type {
  InspectCompaction,
  InspectContextMessage,
  InspectMessageRef,
  InspectReport,
  InspectSystemPrompt,
} from "./inspect-report";

/** What the report is built from. */
export interface InspectInput {
  /** The system prompt part, as computed by the caller (it reads files). */
  systemPrompt: InspectSystemPrompt;
  sessionId: string;
  version: number | null;
  leafId: string | null;
  /** Entry ids from the root to the leaf. */
  path: string[];
  /**
   * The leaf's path, or any suffix of it that starts at or before the latest compaction's first kept
   * entry (`getBranch(leaf, { sinceLatestCompaction: true })`): the projection, the estimate and the
   * compaction preview depend on that part only.
   */
  branch: readonly SessionEntry[];
  projection: SessionProjection;
  /** The compaction settings to apply (see `resolveOfflineCompaction`). */
  compactionSettings: OfflineCompaction;
  /** Add each message's content (`--full`). */
  full: boolean;
}

/** The `--full` form of one projected message (see the README's schema). */
function fullMessage(entry: SessionEntry, message: AgentMessage): unknown {
  if (message.role === "compactionSummary" || message.role === "branchSummary") {
    return { role: message.role, summary: message.summary };
  }
  if (message.role === "custom" && entry.type === "custom_message") {
    return {
      role: "custom",
      customType: message.customType,
      content: message.content,
      display: message.display,
    };
  }
  return message;
}

function contextMessages(entries: readonly ProjectedSessionEntry[], full: boolean): InspectContextMessage[] {
  const result: InspectContextMessage[] = [];
  for (const { sourceEntry, messages } of entries) {
    for (const message of messages) {
      const item: InspectContextMessage = {
        entryId: sourceEntry.id,
        role: message.role,
        estimatedTokens: estimateTokens(message),
      };
      if (full) item.message = fullMessage(sourceEntry, message);
      result.push(item);
    }
  }
  return result;
}

/** Message refs of projected entries [from, to), skipping compactions and system messages (as prepareCompaction does). */
function refs(entries: readonly ProjectedSessionEntry[], from: number, to: number): InspectMessageRef[] {
  const result: InspectMessageRef[] = [];
  for (let index = from; index < to; index++) {
    const entry = entries[index];
    if (!entry || entry.sourceEntry.type === "compaction") continue;
    for (const message of entry.messages) {
      if (message.role !== "system") result.push({ entryId: entry.sourceEntry.id, role: message.role });
    }
  }
  return result;
}

function sameRoles(refsList: readonly InspectMessageRef[], messages: readonly AgentMessage[]): boolean {
  return (
    refsList.length === messages.length && refsList.every((ref, index) => ref.role === messages[index]?.role)
  );
}

/**
 * Maps a preparation back to entry ids: the same ranges prepareCompaction summarizes, located in the
 * session projection by the cut's entry ids. Throws if the two disagree (that would be a bug).
 */
function describeCompaction(
  preparation: CompactionPreparation,
  entries: readonly ProjectedSessionEntry[],
): InspectCompaction {
  const indexOf = (id: string) => entries.findIndex((entry) => entry.sourceEntry.id === id);
  const first = entries[0];
  const boundaryStart = first?.sourceEntry.type === "compaction" && first.messages.length > 0 ? 1 : 0;
  const firstKeptIndex = indexOf(preparation.firstKeptEntryId);
  const turnStartIndex =
    preparation.turnStartEntryId === undefined ? -1 : indexOf(preparation.turnStartEntryId);
  const historyEnd = preparation.isSplitTurn ? turnStartIndex : firstKeptIndex;
  const messagesToSummarize = refs(entries, boundaryStart, historyEnd);
  const turnPrefixMessages = preparation.isSplitTurn ? refs(entries, turnStartIndex, firstKeptIndex) : [];
  if (
    firstKeptIndex === -1 ||
    !sameRoles(messagesToSummarize, preparation.messagesToSummarize) ||
    !sameRoles(turnPrefixMessages, preparation.turnPrefixMessages)
  ) {
    throw new Error(
      `inspect: could not locate the compaction ranges (first kept ${preparation.firstKeptEntryId})`,
    );
  }
  const files = computeFileLists(preparation.fileOps);
  return {
    firstKeptEntryId: preparation.firstKeptEntryId,
    isSplitTurn: preparation.isSplitTurn,
    turnStartEntryId: preparation.turnStartEntryId ?? null,
    messagesToSummarize,
    turnPrefixMessages,
    hasPreviousSummary: preparation.previousSummary !== undefined,
    tokensBefore: preparation.tokensBefore,
    readFiles: files.readFiles,
    modifiedFiles: files.modifiedFiles,
  };
}

/**
 * Builds the `inspect` report of one leaf: its path, the projected context with token estimates
 * (pi's chars/4 per message; the total is usage-aware), the next compaction's cut for the settings'
 * `keepRecentTokens`, and those settings. Pure: reads its input only. The caller adds `validation`
 * once it has read everything it reads.
 */
export function buildInspectReport(input: InspectInput): Omit<InspectReport, "validation"> {
  const { projection, branch, compactionSettings: settings } = input;
  const preparation = prepareCompaction(branch, {
    enabled: true,
    reserveTokens: 0,
    keepRecentTokens: settings.keepRecentTokens,
  });
  return {
    sessionId: input.sessionId,
    version: input.version,
    leafId: input.leafId,
    path: input.path,
    context: {
      estimatedTokens: estimateProjectedContextTokens(projection, branch).tokens,
      messages: contextMessages(projection.entries, input.full),
    },
    compaction: preparation === undefined ? null : describeCompaction(preparation, projection.entries),
    compactionSettings: {
      keepRecentTokens: settings.keepRecentTokens,
      reserveTokens: settings.reserveTokens,
      contextWindow: settings.contextWindow,
      threshold: settings.contextWindow === null ? null : settings.contextWindow - settings.reserveTokens,
      scaledFrom: settings.scaledFrom,
    },
    systemPrompt: input.systemPrompt,
  };
}
