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

/** A message `sessionEntryToContextMessages` returns as is: its content is present (no null fix-up needed). */
function hasContent(message: AgentMessage | null | undefined): message is AgentMessage {
  return (
    typeof message === "object" && message !== null && (message as { content?: unknown }).content != null
  );
}

function isSystemMessageEntry(entry: SessionEntry): boolean {
  return entry.type === "message" && entry.message?.role === "system";
}

/**
 * The projection of a root→leaf branch (pi's `buildSessionProjection(path)` applied to the branch
 * array), computed lazily. Context entries are `[latest compaction, ...kept, ...after]` (or the whole
 * branch without a compaction); they are addressed by index and mapped onto the branch, never copied.
 * An entry's messages and tokens are produced only when asked for, and cached; token counts of
 * unedited entries are also cached per entry object across calls, so a growing session only counts
 * what was appended.
 *
 * The branch array is taken as the path itself (pi walks `parentId` links from its last entry, which
 * gives the same array for a real branch). Entry ids are assumed unique on the branch, as pi and Arbor
 * write them: the latest compaction and its first kept entry are found by scanning back from the leaf,
 * so the work is proportional to the context, not to the whole history (except for a compaction whose
 * `firstKeptEntryId` is missing from the branch).
 */
export class BranchProjection implements ProjectionView {
  /** Number of context entries. */
  readonly length: number;
  /** Branch index of the latest compaction, or -1. */
  private readonly compactionIndex: number;
  /** Branch indices of the kept entries (before the compaction). */
  private readonly kept: number[] = [];
  /** Branch index of the first entry after the compaction (0 without one). */
  private readonly afterStart: number;
  private readonly edits = new Map<string, ContextEditEntry>();
  private readonly messageCache: Array<AgentMessage[] | undefined>;

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
    this.compactionIndex = latest;
    this.afterStart = latest + 1;
    if (latest >= 0) {
      const compaction = branch[latest] as CompactionEntry;
      // A retain-none compaction points at itself: nothing before it is kept.
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
          if (!isSystemMessageEntry(branch[index] as SessionEntry)) this.kept.push(index);
        }
      }
    }
    this.length = (latest >= 0 ? 1 + this.kept.length : 0) + branch.length - this.afterStart;
    // Sized up front: filled from the end first, a growing array would fall back to dictionary mode.
    this.messageCache = new Array(this.length);
    const collectEdit = (entry: SessionEntry) => {
      if (entry.type === "context_edit") this.edits.set(entry.targetId, entry);
    };
    for (const index of this.kept) collectEdit(branch[index] as SessionEntry);
    for (let index = this.afterStart; index < branch.length; index++)
      collectEdit(branch[index] as SessionEntry);
  }

  /** Index in the branch of context entry `index`. */
  branchIndexOf(index: number): number {
    if (this.compactionIndex < 0) return index;
    if (index === 0) return this.compactionIndex;
    if (index <= this.kept.length) return this.kept[index - 1] as number;
    return this.afterStart + index - 1 - this.kept.length;
  }

  /** Context entry `index`. */
  entryAt(index: number): SessionEntry {
    return this.branch[this.branchIndexOf(index)] as SessionEntry;
  }

  isCompaction(index: number): boolean {
    return this.entryAt(index).type === "compaction";
  }

  /** The latest edit of context entry `index`, if any. */
  editOf(index: number): ContextEditEntry | undefined {
    if (this.edits.size === 0) return undefined;
    return this.edits.get(this.entryAt(index).id);
  }

  /** The edited messages context entry `index` contributes (an older compaction contributes none). */
  messages(index: number): AgentMessage[] {
    let messages = this.messageCache[index];
    if (messages === undefined) {
      const entry = this.entryAt(index);
      const edit = this.editOf(index);
      if (entry.type === "compaction" && index > 0) messages = [];
      else if (edit === undefined && entry.type === "message" && hasContent(entry.message))
        messages = [entry.message];
      else messages = projectContextEntry(entry, edit);
      this.messageCache[index] = messages;
    }
    return messages;
  }

  /**
   * Appends the non-system messages of context entries `[from, to)` to `out`, skipping compactions (the
   * messages pi's `prepareCompaction` summarizes). A lean loop: it runs over the whole summarized range.
   */
  collectConversation(from: number, to: number, out: AgentMessage[]): void {
    const checkEdits = this.edits.size > 0;
    for (let index = from; index < to; index++) {
      const entry = this.branch[this.branchIndexOf(index)] as SessionEntry;
      if (entry.type === "compaction") continue;
      const cached = this.messageCache[index];
      if (cached === undefined && entry.type === "message" && !(checkEdits && this.edits.has(entry.id))) {
        const message = entry.message;
        if (hasContent(message)) {
          if (message.role !== "system") out.push(message);
          continue;
        }
      }
      for (const message of cached ?? this.messages(index)) if (message.role !== "system") out.push(message);
    }
  }

  /** Only system-message entries and the newest compaction (its checkpoint) can contribute a system message. */
  mayHoldSystem(index: number): boolean {
    const entry = this.entryAt(index);
    return isSystemMessageEntry(entry) || (index === 0 && entry.type === "compaction");
  }

  /** Tokens of context entry `index`, from the counter. */
  tokens(index: number): number {
    const entry = this.entryAt(index);
    if (entry.type === "compaction" && index > 0) return 0;
    if (this.editOf(index) !== undefined) return countMessagesCached(this.counter, this.messages(index));
    return countEntryCached(this.counter, entry, () => this.messages(index));
  }
}
