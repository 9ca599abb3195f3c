import type { SessionEntry } from "../session-entry";
import type { EntryTable } from "./entry-table";

/** A resolved label: its text and the timestamp of the label entry that set it. */
export interface ResolvedLabel {
  label: string;
  timestamp: string;
}

/**
 * Labels resolved from every `label` entry in file order (session-wide, not branch-relative): a
 * non-empty label sets, an empty or missing one clears. Resolved on first use, reading label entries
 * only, then kept up to date on append. Map order follows pi's (first set, unless cleared and set again).
 */
export class LabelIndex {
  private resolved: Map<string, ResolvedLabel> | undefined;

  constructor(private readonly table: EntryTable) {}

  /** Every label by target id. Do not mutate. */
  all(): ReadonlyMap<string, ResolvedLabel> {
    if (!this.resolved) {
      this.resolved = new Map();
      for (const index of this.table.indicesOfType("label")) {
        const entry = this.table.entry(index);
        if (!this.table.isInvalid(index)) this.apply(entry);
      }
    }
    return this.resolved;
  }

  /** Forgets the resolved labels; the next {@link LabelIndex.all} resolves them again. */
  invalidate(): void {
    this.resolved = undefined;
  }

  /** Updates the labels after an append (no-op until first use, which reads everything). */
  onAppend(entry: SessionEntry): void {
    if (this.resolved) this.apply(entry);
  }

  private apply(entry: SessionEntry): void {
    if (entry.type !== "label" || !this.resolved) return;
    if (entry.label) {
      const existing = this.resolved.get(entry.targetId);
      if (existing) {
        existing.label = entry.label;
        existing.timestamp = entry.timestamp;
      } else this.resolved.set(entry.targetId, { label: entry.label, timestamp: entry.timestamp });
    } else this.resolved.delete(entry.targetId);
  }
}
