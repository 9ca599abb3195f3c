import type { AgentMessage } from "@arbor/agent-loop";
import { projectContextEntry } from "../projection/project-context-entry";
import type {
  ProjectedSessionEntry,
  SessionContextSettings,
  SessionProjection,
} from "../projection/session-projection";
import type { CompactionEntry, ContextEditEntry, SessionEntry } from "../session-entry";
import type { EntryTable } from "./entry-table";
import { scanPath } from "./lazy-path";

/**
 * The projection of the current leaf, kept up to date as entries are appended.
 *
 * A recompute walks the light records from the leaf to the root (integers, no parsing), then reads
 * only the context entries (from the latest compaction's kept range to the leaf) and the two
 * entries the thinking level and model come from. An append on the leaf is O(1) amortized: the new
 * entry is projected and pushed; a context edit re-projects its target(s); a compaction recomputes
 * from its kept range (entries already read are reused).
 *
 * Appends are applied when the projection is next read, all at once, in append order (an append
 * then costs one array push): what `get` returns is exactly what applying each append as it came
 * would give, since entries never change once appended. A compaction is applied at once, with the
 * appends before it, because it re-reads its kept range: a corrupt line found there is reported by
 * the append, as before.
 */
export class ProjectionCache {
  private leaf: number | undefined;
  private projected: ProjectedSessionEntry[] = [];
  private messages: AgentMessage[] | undefined = [];
  private edits = new Map<string, ContextEditEntry>();
  private settings: SessionContextSettings = { thinkingLevel: "off", model: null };
  private snapshot: SessionProjection | undefined;
  /** Entries appended since the cache last caught up (see {@link ProjectionCache.onAppend}), in order. */
  private pending: number[] = [];

  /** With `pinEntries`, the entries of the current context are kept for reuse by the table. */
  constructor(
    private readonly table: EntryTable,
    private readonly pinEntries = true,
  ) {}

  /** The projection for `leaf` (an entry index, or -1 for an empty leaf). */
  get(leaf: number): SessionProjection {
    if (this.pending.length > 0) this.applyPending();
    if (this.leaf !== leaf) this.recompute(leaf);
    if (!this.snapshot) {
      this.messages ??= flattenMessages(this.projected);
      this.snapshot = {
        entries: this.projected.slice(),
        messages: this.messages.slice(),
        thinkingLevel: this.settings.thinkingLevel,
        model: this.settings.model,
      };
    }
    return this.snapshot;
  }

  /** Forgets the cached leaf; the next `get` recomputes. */
  invalidate(): void {
    this.leaf = undefined;
    this.snapshot = undefined;
    this.pending = [];
  }

  /**
   * Notes that entry `entry` was appended at `index`; the projection takes it in on the next `get`
   * (a compaction at once). When its parent is the cached leaf the update is incremental; otherwise
   * the cache is dropped (recomputed lazily).
   * Throws {@link CorruptLineFound} (from a compaction's kept range) with the cache dropped.
   */
  onAppend(index: number, entry: SessionEntry): void {
    if (this.leaf === undefined) return;
    this.pending.push(index);
    if (entry.type === "compaction") this.applyPending();
  }

  private applyPending(): void {
    const pending = this.pending;
    this.pending = [];
    try {
      for (const index of pending) {
        if (this.leaf === undefined) return;
        this.apply(index, this.table.parentOf(index));
      }
    } catch (error) {
      this.invalidate();
      throw error;
    }
  }

  /** Takes in entry `index`, appended as a child of `parentIndex`. */
  private apply(index: number, parentIndex: number): void {
    if (this.leaf === undefined || this.leaf !== parentIndex) {
      this.invalidate();
      return;
    }
    const entry = this.table.entry(index);
    this.snapshot = undefined;
    if (entry.type === "compaction") {
      this.recompute(index, this.settings);
      return;
    }
    this.leaf = index;
    this.applySettings(entry);
    if (entry.type === "context_edit") this.applyEdit(entry);
    const messages = projectContextEntry(entry, this.edits.get(entry.id));
    this.projected.push({ sourceEntry: entry, messages });
    if (this.messages) for (const message of messages) this.messages.push(message);
  }

  private applySettings(entry: SessionEntry): void {
    if (entry.type === "thinking_level_change")
      this.settings = { ...this.settings, thinkingLevel: entry.thinkingLevel };
    else if (entry.type === "model_change") {
      this.settings = { ...this.settings, model: { provider: entry.provider, modelId: entry.modelId } };
    } else if (entry.type === "message" && entry.message?.role === "assistant") {
      this.settings = {
        ...this.settings,
        model: { provider: entry.message.provider, modelId: entry.message.model },
      };
    }
  }

  /** Records the edit (latest wins) and re-projects every context entry it targets. */
  private applyEdit(edit: ContextEditEntry): void {
    this.edits.set(edit.targetId, edit);
    for (let position = 0; position < this.projected.length; position++) {
      const current = this.projected[position] as ProjectedSessionEntry;
      if (current.sourceEntry.id !== edit.targetId) continue;
      if (current.sourceEntry.type === "compaction" && position > 0) continue;
      // Replace, never mutate: earlier snapshots share these objects.
      this.projected[position] = {
        sourceEntry: current.sourceEntry,
        messages: projectContextEntry(current.sourceEntry, edit),
      };
      this.messages = undefined;
    }
  }

  private recompute(leaf: number, knownSettings?: SessionContextSettings): void {
    this.leaf = leaf;
    this.snapshot = undefined;
    const scan = scanPath(this.table, leaf, knownSettings === undefined);
    const materialized = new Map<number, SessionEntry>();
    const edits = new Map<string, ContextEditEntry>();
    const projected: ProjectedSessionEntry[] = [];
    // One pass in context order (the order entries are read and their problems reported): each entry
    // is projected as if unedited; the few that a context edit targets are projected again below.
    for (const index of scan.context) {
      const sourceEntry = scan.read.get(index) ?? this.table.entry(index);
      // An entry that failed validation (reported when read) is left out of the projection.
      if (this.table.isInvalid(index)) continue;
      materialized.set(index, sourceEntry);
      if (sourceEntry.type === "context_edit") edits.set(sourceEntry.targetId, sourceEntry);
      const messages =
        sourceEntry.type === "compaction" && projected.length > 0 ? [] : projectContextEntry(sourceEntry);
      projected.push({ sourceEntry, messages });
    }
    if (this.pinEntries) this.table.pin(materialized);
    if (edits.size > 0) {
      for (let position = 0; position < projected.length; position++) {
        const { sourceEntry } = projected[position] as ProjectedSessionEntry;
        const edit = edits.get(sourceEntry.id);
        if (edit === undefined || (sourceEntry.type === "compaction" && position > 0)) continue;
        projected[position] = { sourceEntry, messages: projectContextEntry(sourceEntry, edit) };
      }
    }
    this.edits = edits;
    this.projected = projected;
    this.messages = undefined;
    this.settings = knownSettings ?? (scan.settings as SessionContextSettings);
  }

  /** The latest compaction in the current context, if any (always at position 0). */
  latestCompaction(): CompactionEntry | undefined {
    const first = this.projected[0]?.sourceEntry;
    return first?.type === "compaction" ? first : undefined;
  }
}

/** The messages of every projected entry, in order (one level of flattening). */
function flattenMessages(projected: readonly ProjectedSessionEntry[]): AgentMessage[] {
  const messages: AgentMessage[] = [];
  for (const entry of projected) for (const message of entry.messages) messages.push(message);
  return messages;
}
