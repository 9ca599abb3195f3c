import type { Usage } from "@arbor/providers";
import type { SessionCore } from "../internal/session-core";
import { type ContextUsage, getContextUsage } from "./context-usage";

/** Token totals, summed over responses and summaries. */
export interface TokenTotals {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** `input + output + cacheRead + cacheWrite`. */
  total: number;
}

/** Counts and totals of a whole session (every branch), for `/session`-style displays. */
export interface SessionStats {
  sessionId: string;
  /** `undefined` for in-memory sessions. */
  sessionFile: string | undefined;
  /** Entries in the session (all branches). */
  entries: number;
  /** Entries on the current branch. */
  branchEntries: number;
  userMessages: number;
  assistantMessages: number;
  toolResults: number;
  toolCalls: number;
  compactions: number;
  branchSummaries: number;
  /** Usage of responses, compaction and branch summaries, and `usage` entries. */
  tokens: TokenTotals;
  /** US dollars, as priced by the providers. */
  cost: number;
  contextUsage: ContextUsage | undefined;
}

/** Reads every entry of the session once and sums it up. Pure: writes nothing. */
export function getSessionStats(core: SessionCore): SessionStats {
  const stats: SessionStats = {
    sessionId: core.store.sessionId,
    sessionFile: core.store.path,
    entries: 0,
    branchEntries: core.store.getBranch().length,
    userMessages: 0,
    assistantMessages: 0,
    toolResults: 0,
    toolCalls: 0,
    compactions: 0,
    branchSummaries: 0,
    tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    cost: 0,
    contextUsage: getContextUsage(core),
  };
  const add = (usage: Usage | undefined) => {
    if (usage === undefined) return;
    stats.tokens.input += usage.input;
    stats.tokens.output += usage.output;
    stats.tokens.cacheRead += usage.cacheRead;
    stats.tokens.cacheWrite += usage.cacheWrite;
    stats.tokens.total += usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
    stats.cost += usage.cost?.total ?? 0;
  };
  for (const entry of core.store.getEntries()) {
    stats.entries++;
    if (entry.type === "compaction") {
      stats.compactions++;
      add(entry.usage);
    } else if (entry.type === "branch_summary") {
      stats.branchSummaries++;
      add(entry.usage);
    } else if (entry.type === "usage") {
      add(entry.usage);
    } else if (entry.type === "message") {
      const message = entry.message;
      if (message.role === "user") stats.userMessages++;
      else if (message.role === "toolResult") stats.toolResults++;
      else if (message.role === "assistant") {
        stats.assistantMessages++;
        stats.toolCalls += message.content.filter((block) => block.type === "toolCall").length;
        add(message.usage);
      }
    }
  }
  return stats;
}
