import type {
  AgentMessage,
  BranchSummaryMessage,
  CompactionSummaryMessage,
  CustomMessage,
} from "@arbor/agent-loop";
import type { SessionEntry } from "../session-entry";

/** Milliseconds of an entry's ISO timestamp (`NaN` when it does not parse, as in pi). */
function entryTime(timestamp: string): number {
  return new Date(timestamp).getTime();
}

/**
 * What one entry contributes to the model context, before context edits:
 * - `message`: the message itself (the stored object). A `system` message with a null/missing content
 *   gets `content: ""`, and a user/assistant/toolResult one gets `content: []` (as copies).
 * - `custom_message`: a `custom` message (null content becomes `[]`).
 * - `branch_summary`: a `branchSummary` message, only when `summary` is non-empty.
 * - `compaction`: its `systemMessage` checkpoint (when present) then a `compactionSummary` message.
 * - every other type (settings, labels, usage, custom, context edits, unknown types): nothing.
 *
 * Message timestamps are the entry's timestamp in milliseconds. Pure: never mutates `entry`.
 */
export function sessionEntryToContextMessages(entry: SessionEntry): AgentMessage[] {
  switch (entry.type) {
    case "message": {
      const message = entry.message as AgentMessage | null | undefined;
      // A structurally broken entry (reported when loading) contributes nothing instead of crashing.
      if (message === null || typeof message !== "object") return [];
      const content = (message as { content?: unknown }).content;
      if (message.role === "system" && content == null) return [{ ...message, content: "" }];
      if (
        (message.role === "user" || message.role === "assistant" || message.role === "toolResult") &&
        content == null
      ) {
        return [{ ...message, content: [] }];
      }
      return [message];
    }
    case "custom_message": {
      const custom: CustomMessage = {
        role: "custom",
        customType: entry.customType,
        content: entry.content ?? [],
        display: entry.display,
        details: entry.details,
        timestamp: entryTime(entry.timestamp),
      };
      return [custom];
    }
    case "branch_summary": {
      if (!entry.summary) return [];
      const summary: BranchSummaryMessage = {
        role: "branchSummary",
        summary: entry.summary,
        fromId: entry.fromId,
        timestamp: entryTime(entry.timestamp),
      };
      return [summary];
    }
    case "compaction": {
      const summary: CompactionSummaryMessage = {
        role: "compactionSummary",
        summary: entry.summary,
        tokensBefore: entry.tokensBefore,
        timestamp: entryTime(entry.timestamp),
      };
      return entry.systemMessage ? [entry.systemMessage, summary] : [summary];
    }
    default:
      return [];
  }
}
