import { type AgentMessage, replaySystemMessages } from "@arbor/agent-loop";
import { buildBranchedEntries } from "./internal/build-branched-entries";
import { checkContextEdit } from "./internal/check-context-edit";
import { CorruptLineFound } from "./internal/corrupt-line-found";
import { formatTimestamp } from "./internal/format-timestamp";
import { generateEntryId } from "./internal/generate-entry-id";
import { resolveSessionTarget } from "./internal/resolve-session-target";
import { findEntryProblem } from "./internal/validate-entry";
import type {
  BranchSummaryEntry,
  CompactionEntry,
  ContextEditEntry,
  ContextEditReplacement,
  CustomEntry,
  CustomMessageEntry,
  LabelEntry,
  ModelChangeEntry,
  SessionEntry,
  SessionInfoEntry,
  SessionMessageEntry,
  ThinkingLevelChangeEntry,
  UsageEntry,
} from "./session-entry";
import { SessionStoreError } from "./session-store-error";
import type {
  AppendCompactionInput,
  BranchSummaryInput,
  CustomMessageInput,
  UsageInput,
} from "./session-store-inputs";
import type { NewSessionTarget } from "./session-store-options";
import { SessionView } from "./session-view";

/**
 * One session: an append-only tree of entries over a storage backend, with a current leaf and the
 * projection (what the model sees) of that leaf, kept up to date incrementally.
 *
 * Behaviour follows pi 1.6.0's `SessionManager` (see the package README for the rules). Every append
 * creates a child of the current leaf and moves the leaf to it, writes the entry through the backend
 * before it becomes visible, and throws (leaving the store unchanged) when the write fails.
 *
 * Reads are lazy: opening reads light records only; full entries are read when a method needs them.
 * Methods returning entries return the stored objects: do not mutate them.
 *
 * Not safe for concurrent use from several async contexts without external ordering (all methods are
 * synchronous). Use {@link SessionStore.close} when done.
 */
export class SessionStore extends SessionView {
  /**
   * Moves the leaf to `branchFromId` (`null`: a new root) and appends a `branch_summary` there whose
   * `fromId` is the previous leaf (or `"root"` when it was empty).
   *
   * @throws SessionStoreError `ENTRY_NOT_FOUND` for an unknown `branchFromId`.
   */
  branchWithSummary<TDetails>(
    branchFromId: string | null,
    input: BranchSummaryInput<TDetails>,
  ): BranchSummaryEntry<TDetails> {
    const target = branchFromId === null ? -1 : this.requireIndex(branchFromId);
    const fromId = this.leafId ?? "root";
    const previousLeaf = this.leaf;
    this.leaf = target;
    try {
      const { id, parentId, timestamp } = this.base();
      return this.commit({
        type: "branch_summary",
        id,
        parentId,
        timestamp,
        fromId,
        summary: input.summary,
        details: input.details,
        usage: input.usage,
        fromHook: input.fromHook,
      }) as BranchSummaryEntry<TDetails>;
    } catch (error) {
      this.leaf = previousLeaf;
      throw error;
    }
  }

  /**
   * Appends a transcript message. Summary roles (`compactionSummary`, `branchSummary`) are rejected:
   * use `appendCompaction` / `branchWithSummary`.
   *
   * @throws SessionStoreError `SESSION_ENTRY_INVALID` for a summary role or a malformed message.
   */
  appendMessage(message: AgentMessage): SessionMessageEntry {
    if (message.role === "compactionSummary" || message.role === "branchSummary") {
      throw new SessionStoreError(
        "SESSION_ENTRY_INVALID",
        `Messages with role ${message.role} are written as their own entry type`,
        {
          sessionFile: this.where,
        },
      );
    }
    const { id, parentId, timestamp } = this.base();
    return this.commit({ type: "message", id, parentId, timestamp, message }) as SessionMessageEntry;
  }

  /** Appends a thinking level change (latest on the path wins). */
  appendThinkingLevelChange(thinkingLevel: string): ThinkingLevelChangeEntry {
    const { id, parentId, timestamp } = this.base();
    return this.commit({
      type: "thinking_level_change",
      id,
      parentId,
      timestamp,
      thinkingLevel,
    }) as ThinkingLevelChangeEntry;
  }

  /** Appends a model change (latest model change or assistant message on the path wins). */
  appendModelChange(provider: string, modelId: string): ModelChangeEntry {
    const { id, parentId, timestamp } = this.base();
    return this.commit({
      type: "model_change",
      id,
      parentId,
      timestamp,
      provider,
      modelId,
    }) as ModelChangeEntry;
  }

  /** Appends usage that is not part of the conversation (for example a cache warm-up). */
  appendUsage(input: UsageInput): UsageEntry {
    const { kind, provider, model, usage, note } = input;
    const { id, parentId, timestamp } = this.base();
    return this.commit({
      type: "usage",
      id,
      parentId,
      timestamp,
      kind,
      provider,
      model,
      usage,
      ...(note ? { note } : {}),
    }) as UsageEntry;
  }

  /**
   * Appends a compaction. Its `systemMessage` is the replay of every system message in the current
   * projection (timestamped with the entry's time), omitted when there is none. A `null`
   * `firstKeptEntryId` stores the entry's own id (retain-none). `firstKeptEntryId` is not checked.
   */
  appendCompaction<TDetails>(input: AppendCompactionInput<TDetails>): CompactionEntry<TDetails> {
    const { id, parentId, timestamp } = this.base();
    const system = replaySystemMessages(this.getProjection().messages);
    return this.commit({
      type: "compaction",
      id,
      parentId,
      timestamp,
      summary: input.summary,
      firstKeptEntryId: input.firstKeptEntryId ?? id,
      tokensBefore: input.tokensBefore,
      details: input.details,
      usage: input.usage,
      fromHook: input.fromHook,
      ...(system ? { systemMessage: { ...system, timestamp: new Date(timestamp).getTime() } } : {}),
    }) as CompactionEntry<TDetails>;
  }

  /** Appends extension state (contributes nothing to the context). */
  appendCustomEntry<TData>(customType: string, data?: TData): CustomEntry<TData> {
    const { id, parentId, timestamp } = this.base();
    return this.commit({ type: "custom", customType, data, id, parentId, timestamp }) as CustomEntry<TData>;
  }

  /** Appends an extension message; the model sees it as role `custom`. */
  appendCustomMessageEntry<TDetails>(input: CustomMessageInput<TDetails>): CustomMessageEntry<TDetails> {
    const { customType, content, display, details } = input;
    const { id, parentId, timestamp } = this.base();
    return this.commit({
      type: "custom_message",
      customType,
      content,
      display,
      details,
      id,
      parentId,
      timestamp,
    }) as CustomMessageEntry<TDetails>;
  }

  /**
   * Appends a context edit: the model sees `replacement.content` instead of the target's content, or
   * nothing for `null`. The target must be on the active branch and be a `custom_message` or a
   * user/assistant/toolResult message. A string replacement for an assistant or toolResult target is
   * stored as one text block.
   *
   * @throws SessionStoreError `CONTEXT_EDIT_INVALID` (see `reason`) or `ENTRY_NOT_FOUND`.
   */
  appendContextEdit(targetId: string, replacement: ContextEditReplacement | null): ContextEditEntry {
    const normalized = checkContextEdit(this.table, this.leaf, targetId, replacement, this.where);
    const { id, parentId, timestamp } = this.base();
    return this.commit({
      type: "context_edit",
      id,
      parentId,
      timestamp,
      targetId,
      replacement: normalized,
    }) as ContextEditEntry;
  }

  /**
   * Sets (or, with an empty or absent label, clears) the label of an entry. The label entry is a
   * tree node like any other (it becomes the leaf).
   *
   * @throws SessionStoreError `ENTRY_NOT_FOUND` for an unknown target.
   */
  appendLabelChange(targetId: string, label: string | undefined): LabelEntry {
    this.requireIndex(targetId);
    const { id, parentId, timestamp } = this.base();
    return this.commit({ type: "label", id, parentId, timestamp, targetId, label }) as LabelEntry;
  }

  /** Names the session (newlines collapse to a space, then trimmed; an empty name clears it). */
  appendSessionInfo(name: string): SessionInfoEntry {
    const { id, parentId, timestamp } = this.base();
    return this.commit({
      type: "session_info",
      id,
      parentId,
      timestamp,
      name: name.replace(/[\r\n]+/g, " ").trim(),
    }) as SessionInfoEntry;
  }

  /**
   * Creates a new session holding the path from the root to `entryId` (pi's `createBranchedSession`,
   * used for fork and clone): labels on the path are dropped and re-appended at the end from the
   * resolved labels, entries are re-chained, a compaction pointing at a dropped label points at the
   * next kept entry. The new header has a new id and `parentSession` = this file. This store is
   * unchanged. Returns the new store (open; close it when done).
   *
   * @throws SessionStoreError `ENTRY_NOT_FOUND`, `SESSION_TARGET_INVALID`; backend errors as thrown.
   */
  forkSession(entryId: string, target: NewSessionTarget = {}): SessionStore {
    this.requireIndex(entryId);
    const entries = buildBranchedEntries(this.getBranch(entryId), this.getLabels(), this.options.idSource);
    return this.deriveSession(target, entries);
  }

  /**
   * {@link forkSession} at the current leaf: a new session holding only the active branch.
   *
   * @throws SessionStoreError `ENTRY_NOT_FOUND` when the leaf is empty.
   */
  cloneSession(target: NewSessionTarget = {}): SessionStore {
    const leafId = this.leafId;
    if (leafId === null) {
      throw new SessionStoreError("ENTRY_NOT_FOUND", "Cannot clone an empty branch", {
        sessionFile: this.where,
      });
    }
    return this.forkSession(leafId, target);
  }

  /**
   * Creates a new session with every entry of this one (all branches, verbatim), a new id and
   * `parentSession` = this file (pi's `forkFrom`). Reads the whole session. Returns the new store.
   *
   * @throws SessionStoreError `SESSION_TARGET_INVALID`; backend errors as thrown.
   */
  copySession(target: NewSessionTarget = {}): SessionStore {
    return this.deriveSession(target, this.getEntries());
  }

  /**
   * Resolves once every entry appended so far is acknowledged by the backend: at once for the JSONL
   * and in-memory backends (their `append` already was), once committed for an asynchronous backend
   * such as PostgreSQL. Rejects with the backend's typed error when a write failed; the store must
   * then be closed and the session reopened. Await it before telling anyone an entry exists.
   */
  flush(): Promise<void> {
    return this.storage.flush?.() ?? Promise.resolve();
  }

  /**
   * Rewrites a migrated file now, at the current version (the first append does it anyway). The
   * backend keeps the original. Returns where, or `undefined` when nothing was pending.
   */
  persistMigration(): { backupPath?: string } | undefined {
    this.assertOpen();
    return this.writer.needsRewrite ? this.writer.write([]) : undefined;
  }

  /**
   * Appends entries taken from another session verbatim (ids, parents, timestamps and every field
   * kept, entry types this version does not know included) and moves the leaf to the last one: to
   * keep a copy of a session in step with it, as the runtime's boundary previews do. Checks all of them
   * before writing any: each must be an object with a non-empty string `id` and `type`, its id new to
   * this store and to the batch, its `parentId` `null` or the id of an entry of this store or an
   * earlier one of the batch. Nothing else is checked (the caller vouches for the entries' content).
   *
   * @throws SessionStoreError `SESSION_ENTRY_INVALID` (no id or type, an id already taken) or
   * `ENTRY_NOT_FOUND` (an unknown parent), naming the entry's index in `entries` and its id;
   * `SESSION_CLOSED`; what the storage throws when writing.
   */
  importEntries(entries: readonly SessionEntry[]): void {
    this.assertOpen();
    const batch = new Set<string>();
    for (const [index, entry] of entries.entries()) {
      const { id, type, parentId } = (entry ?? {}) as { id?: unknown; type?: unknown; parentId?: unknown };
      if (typeof id !== "string" || id === "" || typeof type !== "string" || type === "") {
        throw new SessionStoreError(
          "SESSION_ENTRY_INVALID",
          `importEntries: entries[${index}] has no string id and type`,
          { sessionFile: this.where },
        );
      }
      if (batch.has(id) || this.table.indexOf(id) !== undefined) {
        throw new SessionStoreError(
          "SESSION_ENTRY_INVALID",
          `importEntries: entries[${index}] has the id ${JSON.stringify(id)}, which the session already holds`,
          { sessionFile: this.where, entryId: id },
        );
      }
      if (
        parentId !== null &&
        !(typeof parentId === "string" && (batch.has(parentId) || this.table.indexOf(parentId) !== undefined))
      ) {
        throw new SessionStoreError(
          "ENTRY_NOT_FOUND",
          `importEntries: the parent ${JSON.stringify(parentId)} of entries[${index}] (${id}) is neither in the session nor earlier in the batch`,
          { sessionFile: this.where, entryId: id },
        );
      }
      batch.add(id);
    }
    this.writeVerbatim(entries);
  }

  /** Writes entries as they are (fork, clone and copy fill new sessions with them) and tracks them. */
  private writeVerbatim(entries: readonly SessionEntry[]): void {
    this.assertOpen();
    this.writer.write(entries);
    for (const entry of entries) this.track(entry);
  }

  /** @internal */
  private deriveSession(target: NewSessionTarget, entries: readonly SessionEntry[]): SessionStore {
    this.assertOpen();
    const { header, storage } = resolveSessionTarget(this, target);
    const derived = new SessionStore(storage, { ...this.options, cwd: header.cwd }, header);
    if (derived.getEntryCount() > 0 || derived.header !== header) {
      derived.close();
      throw new SessionStoreError(
        "SESSION_TARGET_INVALID",
        "The target of a new session already holds a session",
        {
          sessionFile: storage.path ?? storage.location,
        },
      );
    }
    derived.writeVerbatim(entries);
    return derived;
  }

  /** @internal The tree fields of the next entry: a fresh id, the leaf as parent, the time now. */
  private base(): { id: string; parentId: string | null; timestamp: string } {
    this.assertOpen();
    const now = this.options.now?.();
    const ms = now === undefined ? Date.now() : now.getTime();
    return {
      id: generateEntryId(this.table, this.options.idSource),
      parentId: this.leafId,
      timestamp: formatTimestamp(ms),
    };
  }

  /** @internal */
  private commit(entry: Record<string, unknown>): SessionEntry {
    const problem = findEntryProblem(entry);
    if (problem !== undefined) {
      throw new SessionStoreError(
        "SESSION_ENTRY_INVALID",
        `Refusing to append an invalid entry: ${problem}`,
        {
          sessionFile: this.where,
          entryId: entry.id as string,
        },
      );
    }
    const typed = entry as unknown as SessionEntry;
    this.writer.write([typed]);
    this.track(typed);
    return typed;
  }

  /** @internal */
  private track(entry: SessionEntry): void {
    const index = this.table.push(entry);
    this.leaf = index;
    this.labels.onAppend(entry);
    if (entry.type === "session_info") this.sessionName = { value: entry.name?.trim() || undefined };
    try {
      this.projection.onAppend(index, entry);
    } catch (error) {
      // The entry is written; only refreshing the projection met a corrupt line (a compaction
      // re-reads its kept range). The projection is recomputed on the next read, without that line.
      if (!(error instanceof CorruptLineFound)) throw error;
      this.leaveOutCorruptLine(error);
    }
  }
}
