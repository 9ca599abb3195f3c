import { type AgentMessage, replaySystemMessages } from "@arbor/agent-loop";
import type { ImageContent, TextContent, Usage } from "@arbor/providers";
import { buildBranchedEntries } from "./internal/build-branched-entries";
import { buildSessionTree, type SessionTreeNode } from "./internal/build-session-tree";
import { checkContextEdit } from "./internal/check-context-edit";
import { createSessionHeader } from "./internal/create-session-header";
import type { EntryProblem, EntryTable } from "./internal/entry-table";
import { generateEntryId } from "./internal/generate-entry-id";
import { LabelIndex, type ResolvedLabel } from "./internal/label-index";
import { walkToRoot } from "./internal/lazy-path";
import { loadSession } from "./internal/load-session";
import { ProjectionCache } from "./internal/projection-cache";
import { resolveSessionTarget } from "./internal/resolve-session-target";
import { SessionWriter } from "./internal/session-writer";
import { findEntryProblem } from "./internal/validate-entry";
import type { SessionProjection } from "./projection/session-projection";
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
  SessionHeader,
  SessionInfoEntry,
  SessionMessageEntry,
  ThinkingLevelChangeEntry,
  UsageEntry,
} from "./session-entry";
import type { SessionIssue } from "./session-issue";
import { SessionStoreError } from "./session-store-error";
import type { NewSessionTarget, SessionStoreOptions } from "./session-store-options";
import type { SessionStorage } from "./storage/session-storage";

/** Input of {@link SessionStore.appendCompaction}. */
export interface AppendCompactionInput<TDetails = unknown> {
  summary: string;
  /** First entry kept after the summary; `null` keeps nothing (the entry then stores its own id). */
  firstKeptEntryId: string | null;
  tokensBefore: number;
  details?: TDetails;
  usage?: Usage;
  fromHook?: boolean;
}

/** Input of {@link SessionStore.branchWithSummary}. */
export interface BranchSummaryInput<TDetails = unknown> {
  summary: string;
  details?: TDetails;
  usage?: Usage;
  fromHook?: boolean;
}

/** Input of {@link SessionStore.appendUsage}. */
export interface UsageInput {
  kind: string;
  provider: string;
  model: string;
  usage: Usage;
  note?: string;
}

/** Input of {@link SessionStore.appendCustomMessageEntry}. */
export interface CustomMessageInput<TDetails = unknown> {
  customType: string;
  content: string | Array<TextContent | ImageContent>;
  display: boolean;
  details?: TDetails;
}

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
export class SessionStore {
  private readonly table: EntryTable;
  private readonly labels: LabelIndex;
  private readonly projection: ProjectionCache;
  private readonly writer: SessionWriter;
  private readonly problems: SessionIssue[] = [];
  private leaf: number;
  private sessionName: { value: string | undefined } | undefined;

  /**
   * Loads the session held by `storage` (calls `storage.load()`). Prefer the factories
   * (`openSessionStore`, `createSessionStore`, `createInMemorySessionStore`).
   *
   * `initialHeader` is the header of a new session (default: made from `options`); ignored when the
   * backend already holds a session.
   *
   * @throws SessionStoreError `SESSION_HEADER_INVALID`, `SESSION_ID_INVALID`; backend errors as thrown.
   */
  constructor(
    readonly storage: SessionStorage,
    readonly options: SessionStoreOptions = {},
    initialHeader?: SessionHeader,
  ) {
    const loaded = loadSession(storage, (problem) => this.reportEntryProblem(problem));
    this.table = loaded.table;
    for (const issue of loaded.storageIssues) this.report({ ...issue, sessionFile: storage.path });
    const header = loaded.header ?? initialHeader ?? createSessionHeader(options);
    this.writer = new SessionWriter(storage, header, this.table, {
      headerWritten: loaded.header !== undefined,
      needsRewrite: loaded.migratedFrom !== undefined,
      defer: options.deferFileUntilConversation ?? false,
    });
    this.labels = new LabelIndex(this.table);
    this.projection = new ProjectionCache(this.table);
    this.leaf = this.table.lastVisible();
    if (options.validate === "full")
      for (let index = 0; index < this.table.size; index++) this.table.entry(index);
  }

  /** Session file path; `undefined` for in-memory sessions. */
  get path(): string | undefined {
    return this.storage.path;
  }

  /** The header (written with the first entry for a new session). Do not mutate. */
  get header(): SessionHeader {
    return this.writer.header;
  }

  /** The session id (the header's `id`). */
  get sessionId(): string {
    return this.writer.header.id;
  }

  /** Corrupt lines and invalid entries found so far (entries are checked when first read). */
  get issues(): readonly SessionIssue[] {
    return this.problems;
  }

  /** True when the file was an older version, migrated in memory and not yet rewritten. */
  get isMigrationPending(): boolean {
    return this.writer.needsRewrite;
  }

  /** The current leaf's id; `null` when the leaf is empty (new session or after `resetLeaf`). */
  get leafId(): string | null {
    return this.leaf < 0 ? null : (this.table.record(this.leaf).id ?? null);
  }

  /** Number of entries (header excluded). */
  getEntryCount(): number {
    return this.table.size;
  }

  /** The current leaf entry, or `undefined` for an empty leaf. */
  getLeafEntry(): SessionEntry | undefined {
    return this.leaf < 0 ? undefined : this.table.entry(this.leaf);
  }

  /** The entry with this id (the last in file order if the id is duplicated), or `undefined`. */
  getEntry(id: string): SessionEntry | undefined {
    const index = this.table.indexOf(id);
    return index === undefined ? undefined : this.table.entry(index);
  }

  /** Every entry in file order. Reads the whole session. */
  getEntries(): SessionEntry[] {
    const entries: SessionEntry[] = [];
    for (let index = 0; index < this.table.size; index++) {
      if (!this.table.isHidden(index)) entries.push(this.table.entry(index));
    }
    return entries;
  }

  /** Direct children of `parentId` (`null` for roots), in file order. Scans records, reads only the children. */
  getChildren(parentId: string | null): SessionEntry[] {
    const children: SessionEntry[] = [];
    for (let index = 0; index < this.table.size; index++) {
      const record = this.table.record(index);
      if (record.parentId === parentId && record.type !== "session") children.push(this.table.entry(index));
    }
    return children;
  }

  /** The path from the root to `fromId` (default: the leaf), root first; `[]` for an unknown id or empty leaf. */
  getBranch(fromId?: string): SessionEntry[] {
    const start = fromId === undefined ? this.leaf : (this.table.indexOf(fromId) ?? -1);
    return walkToRoot(this.table, start)
      .reverse()
      .map((index) => this.table.entry(index));
  }

  /** The whole session as a forest (see `SessionTreeNode`). Reads every entry. */
  getTree(): SessionTreeNode[] {
    return buildSessionTree(this.getEntries(), this.labels.all());
  }

  /** The label of an entry (labels are session-wide: the latest label entry in file order wins). */
  getLabel(id: string): string | undefined {
    return this.labels.all().get(id)?.label;
  }

  /** Every label by target id, with the timestamp of the label entry that set it. */
  getLabels(): ReadonlyMap<string, Readonly<ResolvedLabel>> {
    return this.labels.all();
  }

  /** The session name: the latest `session_info` in file order, trimmed; `undefined` when empty or unset. */
  getSessionName(): string | undefined {
    if (!this.sessionName) {
      this.sessionName = { value: undefined };
      for (let index = this.table.size - 1; index >= 0; index--) {
        if (this.table.record(index).type !== "session_info") continue;
        const entry = this.table.entry(index) as SessionInfoEntry;
        this.sessionName.value = entry.name?.trim() || undefined;
        break;
      }
    }
    return this.sessionName.value;
  }

  /**
   * The projection of the current leaf (or of `leafId`: `null` for an empty leaf). The current leaf's
   * projection is cached and refreshed incrementally on append; the returned object is a snapshot
   * that later appends do not change. Do not mutate it.
   *
   * @throws SessionStoreError `ENTRY_NOT_FOUND` for an unknown `leafId`.
   */
  getProjection(leafId?: string | null): SessionProjection {
    if (leafId === undefined) return this.projection.get(this.leaf);
    const index = leafId === null ? -1 : this.requireIndex(leafId);
    if (index === this.leaf) return this.projection.get(this.leaf);
    return new ProjectionCache(this.table, false).get(index);
  }

  /** Moves the leaf to an entry; the next append creates a child of it (a new branch). Writes nothing. */
  branch(entryId: string): void {
    this.leaf = this.requireIndex(entryId);
  }

  /** Empties the leaf: the next append creates a new root (`parentId: null`). Writes nothing. */
  resetLeaf(): void {
    this.leaf = -1;
  }

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
      return this.commit({
        type: "branch_summary",
        ...this.base(),
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
          sessionFile: this.path,
        },
      );
    }
    return this.commit({ type: "message", ...this.base(), message }) as SessionMessageEntry;
  }

  /** Appends a thinking level change (latest on the path wins). */
  appendThinkingLevelChange(thinkingLevel: string): ThinkingLevelChangeEntry {
    return this.commit({
      type: "thinking_level_change",
      ...this.base(),
      thinkingLevel,
    }) as ThinkingLevelChangeEntry;
  }

  /** Appends a model change (latest model change or assistant message on the path wins). */
  appendModelChange(provider: string, modelId: string): ModelChangeEntry {
    return this.commit({ type: "model_change", ...this.base(), provider, modelId }) as ModelChangeEntry;
  }

  /** Appends usage that is not part of the conversation (for example a cache warm-up). */
  appendUsage(input: UsageInput): UsageEntry {
    const { kind, provider, model, usage, note } = input;
    return this.commit({
      type: "usage",
      ...this.base(),
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
    const base = this.base();
    const system = replaySystemMessages(this.getProjection().messages);
    return this.commit({
      type: "compaction",
      ...base,
      summary: input.summary,
      firstKeptEntryId: input.firstKeptEntryId ?? base.id,
      tokensBefore: input.tokensBefore,
      details: input.details,
      usage: input.usage,
      fromHook: input.fromHook,
      ...(system ? { systemMessage: { ...system, timestamp: new Date(base.timestamp).getTime() } } : {}),
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
    const normalized = checkContextEdit(this.table, this.leaf, targetId, replacement, this.path);
    return this.commit({
      type: "context_edit",
      ...this.base(),
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
    return this.commit({ type: "label", ...this.base(), targetId, label }) as LabelEntry;
  }

  /** Names the session (newlines collapse to a space, then trimmed; an empty name clears it). */
  appendSessionInfo(name: string): SessionInfoEntry {
    return this.commit({
      type: "session_info",
      ...this.base(),
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
    const entries = buildBranchedEntries(this.getBranch(entryId), this.labels.all(), this.options.idSource);
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
        sessionFile: this.path,
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
   * Rewrites a migrated file now, at the current version (the first append does it anyway). The
   * backend keeps the original. Returns where, or `undefined` when nothing was pending.
   */
  persistMigration(): { backupPath?: string } | undefined {
    this.assertOpen();
    return this.writer.needsRewrite ? this.writer.write([]) : undefined;
  }

  /** Flushes and releases the backend (locks included). Idempotent; the store is unusable afterwards. */
  close(): void {
    if (this.writer.closed) return;
    this.writer.closed = true;
    this.storage.close();
  }

  /**
   * Writes entries verbatim (ids and parents kept) and moves the leaf to the last one. Used to fill
   * sessions made from others (fork, clone, copy).
   * @internal
   */
  importEntries(entries: readonly SessionEntry[]): void {
    this.assertOpen();
    this.writer.write(entries);
    for (const entry of entries) this.track(entry);
  }

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
          sessionFile: storage.path,
        },
      );
    }
    derived.importEntries(entries);
    return derived;
  }

  private base(): { id: string; parentId: string | null; timestamp: string } {
    this.assertOpen();
    const now = this.options.now?.() ?? new Date();
    return {
      id: generateEntryId(this.table, this.options.idSource),
      parentId: this.leafId,
      timestamp: now.toISOString(),
    };
  }

  private commit(entry: Record<string, unknown>): SessionEntry {
    const problem = findEntryProblem(entry);
    if (problem !== undefined) {
      throw new SessionStoreError(
        "SESSION_ENTRY_INVALID",
        `Refusing to append an invalid entry: ${problem}`,
        {
          sessionFile: this.path,
          entryId: entry.id as string,
        },
      );
    }
    const typed = entry as unknown as SessionEntry;
    this.writer.write([typed]);
    this.track(typed);
    return typed;
  }

  private track(entry: SessionEntry): void {
    const index = this.table.push(entry);
    this.leaf = index;
    this.labels.onAppend(entry);
    if (entry.type === "session_info") this.sessionName = { value: entry.name?.trim() || undefined };
    this.projection.onAppend(index, this.table.parentOf(index));
  }

  private requireIndex(entryId: string): number {
    const index = this.table.indexOf(entryId);
    if (index === undefined) {
      throw new SessionStoreError("ENTRY_NOT_FOUND", `Entry ${entryId} not found`, {
        sessionFile: this.path,
        entryId,
      });
    }
    return index;
  }

  private assertOpen(): void {
    if (this.writer.closed)
      throw new SessionStoreError("SESSION_CLOSED", "The session store is closed", {
        sessionFile: this.path,
      });
  }

  private reportEntryProblem(problem: EntryProblem): void {
    const line = this.storage.lineOf?.(problem.index);
    this.report({
      code: "SESSION_ENTRY_INVALID",
      message: `Invalid entry ${problem.entryId ?? `#${problem.index}`}: ${problem.problem}`,
      sessionFile: this.storage.path,
      ...(line !== undefined ? { line } : {}),
      ...(problem.entryId !== undefined ? { entryId: problem.entryId } : {}),
    });
  }

  private report(issue: SessionIssue): void {
    this.problems.push(issue);
    this.options.onIssue?.(issue);
  }
}
