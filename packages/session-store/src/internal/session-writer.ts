import type { SessionEntry, SessionHeader } from "../session-entry";
import type { SessionStorage } from "../storage/session-storage";
import type { EntryTable } from "./entry-table";

/** How a {@link SessionWriter} starts. */
export interface SessionWriterState {
  /** The backend already holds the header. */
  headerWritten: boolean;
  /** The session was migrated in memory: the next write rewrites the whole file first. */
  needsRewrite: boolean;
  /** Keep a new session in memory until it holds a user or assistant message (pi's behaviour). */
  defer: boolean;
}

function isConversation(entry: SessionEntry): boolean {
  return entry.type === "message" && (entry.message?.role === "user" || entry.message?.role === "assistant");
}

/**
 * Decides how entries reach the backend: plain appends; the header first for a new session; a
 * whole-file rewrite (original kept by the backend) for a migrated one; or, with `defer`, nothing
 * until the first conversation message.
 */
export class SessionWriter {
  closed = false;
  needsRewrite: boolean;
  private headerWritten: boolean;
  private readonly defer: boolean;
  private pending: SessionEntry[] = [];

  constructor(
    private readonly storage: SessionStorage,
    readonly header: SessionHeader,
    private readonly table: EntryTable,
    state: SessionWriterState,
  ) {
    this.headerWritten = state.headerWritten;
    this.needsRewrite = state.needsRewrite;
    this.defer = state.defer;
  }

  /**
   * Writes `entries` (not yet in the table). Throws what the backend throws, with nothing written
   * and the writer's state unchanged. Returns the backup path of a migration rewrite.
   */
  write(entries: readonly SessionEntry[]): { backupPath?: string } | undefined {
    const records = entries as unknown as readonly Record<string, unknown>[];
    if (this.needsRewrite) {
      const existing: Record<string, unknown>[] = [];
      for (let index = 0; index < this.table.size; index++) {
        existing.push(this.table.entry(index) as unknown as Record<string, unknown>);
      }
      const result = this.storage.rewrite(this.header as unknown as Record<string, unknown>, [
        ...existing,
        ...records,
      ]);
      this.needsRewrite = false;
      this.headerWritten = true;
      return result;
    }
    if (this.headerWritten) {
      this.storage.append(records);
      return undefined;
    }
    const batch = [...this.pending, ...entries];
    if (this.defer && !batch.some(isConversation)) {
      this.pending = batch;
      return undefined;
    }
    this.storage.append([
      this.header as unknown as Record<string, unknown>,
      ...(batch as unknown as Record<string, unknown>[]),
    ]);
    this.pending = [];
    this.headerWritten = true;
    return undefined;
  }
}
