import type { AgentMessage } from "@arbor/agent-loop";
import {
  type CompactionEntry,
  type ContextEditEntry,
  projectContextEntry,
  type SessionEntry,
} from "@arbor/session-store";
import type { TokenCounter } from "../tokens/token-counter";
import type { ProjectionView } from "./estimate-projection-view";
import { countEntryCached, countMessagesCached } from "./message-token-cache";

function isSystemMessageEntry(entry: SessionEntry): boolean {
  return entry.type === "message" && entry.message?.role === "system";
}

/**
 * The projection of a root→leaf branch (pi's `buildSessionProjection(path)` applied to the branch
 * array), computed lazily: context entries are selected once, but an entry's messages and tokens are
 * produced only when asked for, and cached. Token counts of unedited entries are also cached per entry
 * object across calls, so a growing session only counts what was appended.
 *
 * The branch array is taken as the path itself (pi walks `parentId` links from its last entry, which
 * gives the same array for a real branch); nothing is re-indexed.
 */
export class BranchProjection implements ProjectionView {
  /** Context entries: the latest compaction, the kept entries and everything after it (or the whole path). */
  readonly entries: SessionEntry[] = [];
  /** Index in the branch of each context entry. */
  readonly branchIndices: number[] = [];
  private readonly edits = new Map<string, ContextEditEntry>();
  private readonly messageCache: Array<AgentMessage[] | undefined> = [];

  constructor(
    readonly branch: readonly SessionEntry[],
    private readonly counter: TokenCounter,
  ) {
    let latest = -1;
    for (let index = branch.length - 1; index >= 0; index--) {
      if (branch[index]?.type === "compaction") {
        latest = index;
        break;
      }
    }
    if (latest < 0) {
      for (let index = 0; index < branch.length; index++) this.add(index);
    } else {
      const compaction = branch[latest] as CompactionEntry;
      // pi locates the compaction by id (its first occurrence) and the kept range by the first entry with
      // `firstKeptEntryId` before it; both are found with forward scans here, as there.
      let compactionIndex = 0;
      while ((branch[compactionIndex] as SessionEntry).id !== compaction.id) compactionIndex++;
      this.entries.push(compaction);
      this.branchIndices.push(latest);
      let kept = false;
      for (let index = 0; index < compactionIndex; index++) {
        const entry = branch[index] as SessionEntry;
        if (entry.id === compaction.firstKeptEntryId) kept = true;
        if (kept && !isSystemMessageEntry(entry)) this.add(index);
      }
      for (let index = compactionIndex + 1; index < branch.length; index++) this.add(index);
    }
    for (const entry of this.entries)
      if (entry.type === "context_edit") this.edits.set(entry.targetId, entry);
  }

  private add(branchIndex: number): void {
    this.entries.push(this.branch[branchIndex] as SessionEntry);
    this.branchIndices.push(branchIndex);
  }

  get length(): number {
    return this.entries.length;
  }

  isCompaction(index: number): boolean {
    return this.entries[index]?.type === "compaction";
  }

  /** The latest edit of the entry at `index`, if any. */
  editOf(index: number): ContextEditEntry | undefined {
    return this.edits.get((this.entries[index] as SessionEntry).id);
  }

  /** The edited messages the entry at `index` contributes (an older compaction contributes none). */
  messages(index: number): AgentMessage[] {
    let messages = this.messageCache[index];
    if (messages === undefined) {
      const entry = this.entries[index] as SessionEntry;
      messages =
        entry.type === "compaction" && index > 0 ? [] : projectContextEntry(entry, this.editOf(index));
      this.messageCache[index] = messages;
    }
    return messages;
  }

  /** Only system-message entries and the newest compaction (its checkpoint) can contribute a system message. */
  mayHoldSystem(index: number): boolean {
    const entry = this.entries[index] as SessionEntry;
    return isSystemMessageEntry(entry) || (index === 0 && entry.type === "compaction");
  }

  branchIndexOf(index: number): number {
    return this.branchIndices[index] ?? -1;
  }

  /** Tokens of the entry at `index`, from the counter. */
  tokens(index: number): number {
    const entry = this.entries[index] as SessionEntry;
    if (entry.type === "compaction" && index > 0) return 0;
    if (this.editOf(index) !== undefined) return countMessagesCached(this.counter, this.messages(index));
    return countEntryCached(this.counter, entry, () => this.messages(index));
  }
}
