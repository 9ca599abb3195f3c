import type { AgentMessage, BranchSummaryMessage, CompactionSummaryMessage } from "@arbor/agent-loop";
import {
  type ContextEditEntry,
  projectContextEntry,
  type SessionEntry,
  sessionEntryToContextMessages,
} from "@arbor/session-store";
import {
  addFileListsFromDetails,
  createFileOps,
  extractFileOpsFromMessage,
  type FileOperations,
  type FileToolMapping,
} from "../files/file-operations";
import { countMessageCached } from "../internal/message-token-cache";
import { defaultTokenCounter, type TokenCounter } from "../tokens/token-counter";

/** Result of {@link prepareBranchEntries}. */
export interface PreparedBranchEntries {
  /** Messages to summarize, oldest first (the newest that fit the budget). */
  messages: AgentMessage[];
  /** Files from the messages and from earlier branch summaries' `details`. */
  fileOps: FileOperations;
  /** Estimated tokens of `messages`. */
  totalTokens: number;
}

/** Options of {@link prepareBranchEntries}. */
export interface PrepareBranchEntriesOptions {
  /** Counter for the budget. Default: pi's chars/4 estimate (needed for pi parity). */
  tokenCounter?: TokenCounter;
  /** Tool names tracked as file operations. Default: `read` / `write` / `edit`. */
  fileToolMapping?: FileToolMapping;
}

function entryTime(timestamp: string): number {
  return new Date(timestamp).getTime();
}

/** The one message an entry gives a branch summary (tool results are skipped), or `undefined`. */
function branchMessage(entry: SessionEntry, edit: ContextEditEntry | undefined): AgentMessage | undefined {
  switch (entry.type) {
    case "message":
      if (entry.message?.role === "toolResult") return undefined;
      return edit ? projectContextEntry(entry, edit)[0] : entry.message;
    case "custom_message":
      return edit ? projectContextEntry(entry, edit)[0] : sessionEntryToContextMessages(entry)[0];
    case "branch_summary": {
      const message: BranchSummaryMessage = {
        role: "branchSummary",
        summary: entry.summary,
        fromId: entry.fromId,
        timestamp: entryTime(entry.timestamp),
      };
      return message;
    }
    case "compaction": {
      const message: CompactionSummaryMessage = {
        role: "compactionSummary",
        summary: entry.summary,
        tokensBefore: entry.tokensBefore,
        timestamp: entryTime(entry.timestamp),
      };
      return message;
    }
    default:
      return undefined;
  }
}

/**
 * Selects what a branch summary covers, newest first within `tokenBudget` (pi 1.6.0's
 * `prepareBranchEntries`):
 * 1. file lists from every `branch_summary` entry's `details` not produced by an extension (all entries,
 *    whatever the budget; compaction details are not read);
 * 2. the latest `context_edit` per target among `entries` is applied;
 * 3. walking newest→oldest: tool results are skipped; user/assistant/custom messages (edited), branch
 *    summaries (even empty) and compaction summaries (without their system checkpoint) are taken; file
 *    operations are extracted from each; when `tokenBudget > 0` and a message would exceed it, the walk
 *    stops, except that a compaction or branch summary is still included while under 90% of the budget.
 *
 * `tokenBudget` 0 means no limit. Pure: never mutates the entries.
 */
export function prepareBranchEntries(
  entries: readonly SessionEntry[],
  tokenBudget = 0,
  options: PrepareBranchEntriesOptions = {},
): PreparedBranchEntries {
  const counter = options.tokenCounter ?? defaultTokenCounter;
  const fileOps = createFileOps();
  const edits = new Map<string, ContextEditEntry>();
  for (const entry of entries) {
    if (entry.type === "branch_summary" && !entry.fromHook && entry.details)
      addFileListsFromDetails(entry.details, fileOps);
    if (entry.type === "context_edit") edits.set(entry.targetId, entry);
  }
  const newestFirst: AgentMessage[] = [];
  let totalTokens = 0;
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index] as SessionEntry;
    const message = branchMessage(entry, edits.get(entry.id));
    if (!message) continue;
    extractFileOpsFromMessage(message, fileOps, options.fileToolMapping);
    const tokens = countMessageCached(counter, message);
    if (tokenBudget > 0 && totalTokens + tokens > tokenBudget) {
      const isSummary = entry.type === "compaction" || entry.type === "branch_summary";
      if (isSummary && totalTokens < tokenBudget * 0.9) {
        newestFirst.push(message);
        totalTokens += tokens;
      }
      break;
    }
    newestFirst.push(message);
    totalTokens += tokens;
  }
  return { messages: newestFirst.reverse(), fileOps, totalTokens };
}
