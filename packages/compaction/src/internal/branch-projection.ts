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
 * gives the same array for a real branch); nothing is re-indexed. Entry ids are assumed unique on the
 * branch, as pi and Arbor write them: the latest compaction and its first kept entry are found by
 * scanning back from the leaf, so the work is proportional to the context, not to the whole history
 * (except for a compaction whose `firstKeptEntryId` is missing from the branch).
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
      this.entries.push(compaction);
      this.branchIndices.push(latest);
      // The kept range starts at the entry with `firstKeptEntryId`, searched backwards from the compaction
      // (ids are unique on a branch, so this finds what pi's forward search finds, without walking the
      // whole history). A retain-none compaction points at itself: nothing before it is kept.
      let keptStart = -1;
      if (compaction.firstKeptEntryId !== compaction.id) {
        for (let index = latest - 1; index >= 0; index--) {
          if ((branch[index] as SessionEntry).id === compaction.firstKeptEntryId) {
            keptStart = index;
            break;
          }
        }
      }
      if (keptStart >= 0) {
        for (let index = keptStart; index < latest; index++) {
          if (!isSystemMessageEntry(branch[index] as SessionEntry)) this.add(index);
        }
      }
      for (let index = latest + 1; index < branch.length; index++) this.add(index);
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
