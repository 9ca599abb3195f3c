import type { SessionTreeNode, SessionTreeShapeNode } from "./internal/build-session-tree";
import { buildSessionTree } from "./internal/build-session-tree";
import { buildTreeShape } from "./internal/build-tree-shape";
import { CorruptLineFound } from "./internal/corrupt-line-found";
import { createSessionHeader } from "./internal/create-session-header";
import type { EntryProblem, EntryTable } from "./internal/entry-table";
import { LabelIndex, type ResolvedLabel } from "./internal/label-index";
import { walkToContextStart, walkToRoot } from "./internal/lazy-path";
import { linkTreeShape } from "./internal/link-tree-shape";
import { loadSession } from "./internal/load-session";
import { nextProjectionFetch } from "./internal/next-projection-fetch";
import { pathIdsJson } from "./internal/path-ids-json";
import { ProjectionCache } from "./internal/projection-cache";
import { SessionWriter } from "./internal/session-writer";
import type { SessionProjection } from "./projection/session-projection";
import type { SessionEntry, SessionHeader, SessionInfoEntry } from "./session-entry";
import type { SessionIssue } from "./session-issue";
import { SessionStoreError } from "./session-store-error";
import type { SessionStoreOptions } from "./session-store-options";
import type { SessionTreeLinks } from "./session-tree-links";
import type { SessionStorage } from "./storage/session-storage";

/**
 * The read side of a {@link SessionStore}: loading, the tree, labels, the session name, the leaf and
 * the projection. Reads are lazy: opening reads light records only; full entries are read when a
 * method needs them. Methods returning entries return the stored objects: do not mutate them.
 */
export class SessionView {
  /** @internal */
  protected readonly table: EntryTable;
  /** @internal */
  protected readonly labels: LabelIndex;
  /** @internal */
  protected readonly projection: ProjectionCache;
  /** @internal */
  protected readonly writer: SessionWriter;
  /** @internal */
  protected readonly problems: SessionIssue[] = [];
  /** @internal */
  protected leaf: number;
  /** @internal The leaf chosen at load (the last entry in file order). */
  private readonly loadedLeaf: number;
  /** @internal */
  protected sessionName: { value: string | undefined } | undefined;

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
    for (const issue of loaded.storageIssues) this.report({ ...issue, sessionFile: this.where });
    const header = loaded.header ?? initialHeader ?? createSessionHeader(options);
    this.writer = new SessionWriter(storage, header, this.table, {
      headerWritten: loaded.header !== undefined,
      needsRewrite: loaded.migratedFrom !== undefined,
      defer: options.deferFileUntilConversation ?? false,
    });
    this.labels = new LabelIndex(this.table);
    this.projection = new ProjectionCache(this.table);
    this.leaf = this.table.lastVisible();
    this.loadedLeaf = this.leaf;
    if (options.validate === "full") {
      for (let index = 0; index < this.table.size; index++) {
        this.tolerateCorruptLines(() => this.table.isHidden(index) || this.table.entry(index));
      }
    }
  }

  /** Session file path; `undefined` for in-memory sessions. */
  get path(): string | undefined {
    return this.storage.path;
  }

  /**
   * Where the session lives, as errors and issues name it (their `sessionFile`): the file path, else
   * the backend's `location` (a database session: URL without password and `#<session id>`);
   * `undefined` for in-memory sessions.
   * @internal
   */
  protected get where(): string | undefined {
    return this.storage.path ?? this.storage.location;
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

  /**
   * How many entries have been checked against their type's structure so far. With `validate: "full"`
   * that is every entry from the open on. With `"lazy"` (the default) it is the entries read so far
   * (a projection reads the context since the latest compaction and the entries its settings come
   * from; `getBranch()` reads the whole path) plus those appended in this process, which are checked
   * before they are written. Problems found are in {@link issues}; entries not yet read are unchecked.
   */
  get validatedEntryCount(): number {
    return this.table.validatedCount;
  }

  /** True when the file was an older version, migrated in memory and not yet rewritten. */
  get isMigrationPending(): boolean {
    return this.writer.needsRewrite;
  }

  /** The current leaf's id; `null` when the leaf is empty (new session or after `resetLeaf`). */
  get leafId(): string | null {
    return this.leaf < 0 ? null : (this.table.idOf(this.leaf) ?? null);
  }

  /** Number of entries (header excluded). */
  getEntryCount(): number {
    return this.table.size;
  }

  /** The current leaf entry, or `undefined` for an empty leaf. */
  getLeafEntry(): SessionEntry | undefined {
    return this.tolerateCorruptLines(() => (this.leaf < 0 ? undefined : this.table.entry(this.leaf)));
  }

  /** The entry with this id (the last in file order if the id is duplicated), or `undefined`. */
  getEntry(id: string): SessionEntry | undefined {
    return this.tolerateCorruptLines(() => {
      const index = this.table.indexOf(id);
      return index === undefined ? undefined : this.table.entry(index);
    });
  }

  /**
   * The bytes of the line that holds the entry with this id (the last in file order if the id is
   * duplicated), as the storage keeps it (UTF-8 JSON, newline excluded), for a reader that needs only
   * part of the entry, such as a listing's one-line preview. Nothing is parsed or checked: the entry
   * is not validated (not counted in {@link validatedEntryCount}, no issue is reported), so treat the
   * bytes as hostile and call {@link getEntry} for anything unusual, which reads and checks the entry
   * as always. `undefined` when no loaded entry has this id, the entry was appended in this process, a
   * line was found corrupt, or the storage cannot give lines (`SessionStorage.readEntryLine`, which
   * both shipped file and memory backends provide). The bytes may be a view of a buffer the storage
   * reuses: valid until the next read from this store.
   *
   * @throws what the storage throws (`SESSION_READ_FAILED`).
   */
  getEntryLine(id: string): Uint8Array | undefined {
    const index = this.table.indexOf(id);
    if (index === undefined || !this.table.isLoaded(index) || this.table.isHidden(index)) return undefined;
    return this.storage.readEntryLine?.(index);
  }

  /** Every entry in file order. Reads the whole session. */
  getEntries(): SessionEntry[] {
    return this.tolerateCorruptLines(() => {
      const entries: SessionEntry[] = [];
      for (let index = 0; index < this.table.size; index++) {
        if (!this.table.isHidden(index)) entries.push(this.table.entry(index));
      }
      return entries;
    });
  }

  /** Direct children of `parentId` (`null` for roots), in file order. Scans records, reads only the children. */
  getChildren(parentId: string | null): SessionEntry[] {
    return this.tolerateCorruptLines(() => {
      const children: SessionEntry[] = [];
      for (let index = 0; index < this.table.size; index++) {
        if (this.table.parentIdOf(index) === parentId && !this.table.isHidden(index))
          children.push(this.table.entry(index));
      }
      return children;
    });
  }

  /**
   * The path from the root to `fromId` (default: the leaf), root first; `[]` for an unknown id or an
   * empty leaf. Reads every entry on the path: on a long session prefer `sinceLatestCompaction`, which
   * returns only the part from the latest compaction's first kept entry (the compaction itself when it
   * keeps nothing) to the leaf: the entries the projection draws from, in path order. Projecting that
   * suffix gives the same context (the thinking level and model may differ: they come from the whole path).
   *
   * Entries that fail validation (reported as `SESSION_ENTRY_INVALID` issues) are left out, as they
   * are from the projection: the branch holds what a model context or a compaction may be built from.
   */
  getBranch(fromId?: string, options: { sinceLatestCompaction?: boolean } = {}): SessionEntry[] {
    return this.tolerateCorruptLines(() => {
      const start = this.indexOrNone(fromId);
      const upward = options.sinceLatestCompaction
        ? walkToContextStart(this.table, start)
        : walkToRoot(this.table, start);
      const branch: SessionEntry[] = [];
      for (let at = upward.length - 1; at >= 0; at--) {
        const index = upward[at] as number;
        const entry = this.table.entry(index);
        if (!this.table.isInvalid(index)) branch.push(entry);
      }
      return branch;
    });
  }

  /**
   * The ids of {@link getBranch}'s path (root first; `[]` for an unknown id or an empty leaf) from the
   * light records alone: reads no entry, so it checks none either. An entry already found invalid is
   * left out, as from `getBranch`; one not read yet cannot be known to be invalid and is included.
   */
  getPathIds(fromId?: string): string[] {
    return this.tolerateCorruptLines(() => this.idsOf(walkToRoot(this.table, this.indexOrNone(fromId))));
  }

  /**
   * The text of `JSON.stringify(getPathIds(fromId))`, the same to the byte, made without a string per
   * id where the store keeps ids as bytes (a session file of 32 MiB or more): for callers that write
   * a long path out as JSON (`arbor inspect --json` at 100,000 entries writes 85,000 ids).
   */
  getPathIdsJson(fromId?: string): string {
    return this.tolerateCorruptLines(() => {
      const upward = walkToRoot(this.table, this.indexOrNone(fromId));
      return this.table.keepsIdBytes ? pathIdsJson(this.table, upward) : JSON.stringify(this.idsOf(upward));
    });
  }

  /**
   * How many ids {@link getPathIds} gives for `fromId`, without making them: the entries on the path
   * that have an id and are not known to be invalid (0 for an unknown id or an empty leaf).
   */
  getPathLength(fromId?: string): number {
    return this.tolerateCorruptLines(() => {
      const upward = walkToRoot(this.table, this.indexOrNone(fromId));
      let length = 0;
      for (const index of upward) if (this.table.hasId(index) && !this.table.isInvalid(index)) length++;
      return length;
    });
  }

  /** The index of entry `fromId` (the leaf when it is `undefined`), or -1 when there is none. */
  private indexOrNone(fromId: string | undefined): number {
    return fromId === undefined ? this.leaf : (this.table.indexOf(fromId) ?? -1);
  }

  /** The ids of the entries `upward` lists from the leaf up, root first, as `getPathIds` gives them. */
  private idsOf(upward: Int32Array): string[] {
    const ids: string[] = [];
    for (let at = upward.length - 1; at >= 0; at--) {
      const index = upward[at] as number;
      const id = this.table.idOf(index);
      if (id !== undefined && !this.table.isInvalid(index)) ids.push(id);
    }
    return ids;
  }

  /** The whole session as a forest (see `SessionTreeNode`). Reads every entry. */
  getTree(): SessionTreeNode[] {
    return this.tolerateCorruptLines(() => buildSessionTree(this.getEntries(), this.labels.all()));
  }

  /**
   * The forest of {@link getTree} (same nodes, same order, same labels) without the entries: each
   * node has the entry's `id`; read an entry with `getEntry(id)` when it is needed. Built from the
   * light records, reading only the label entries and, where an entry has several children, those
   * children (their timestamps order them). So a caller can go through a large session one entry at
   * a time instead of holding every entry at once.
   */
  getTreeShape(): SessionTreeShapeNode[] {
    return this.tolerateCorruptLines(() => buildTreeShape(this.table, this.labels.all()));
  }

  /**
   * The forest of {@link getTreeShape} (same entries, same order, same labels, the same entries read
   * to order forks) as links between entry numbers instead of node objects, with each entry's id,
   * label and line bytes (see `SessionTreeLinks`): for going through a large session with little
   * memory per entry. `undefined` when entries repeat or lack ids or parent links loop (a damaged or
   * version-1 file): use {@link getTreeShape}, which arranges those. The links are a snapshot: an
   * append or a line found corrupt later does not change them.
   */
  getTreeLinks(): SessionTreeLinks | undefined {
    return this.tolerateCorruptLines(() => {
      // Labels first, then the forks' entries: read in the order `getTreeShape` reads them.
      const labels = this.labels.all();
      const links = linkTreeShape(this.table);
      if (links === undefined) return undefined;
      const { table, storage } = this;
      const leaf = this.leaf >= 0 && !table.isHidden(this.leaf) ? this.leaf : -1;
      return {
        ...links,
        leaf,
        id: (entry) => table.idOf(entry) as string,
        label: (entry) => (labels.size === 0 ? undefined : labels.get(table.idOf(entry) as string)?.label),
        line: (entry) =>
          table.isLoaded(entry) && !table.isHidden(entry) ? storage.readEntryLine?.(entry) : undefined,
      };
    });
  }

  /** The label of an entry (labels are session-wide: the latest label entry in file order wins). */
  getLabel(id: string): string | undefined {
    return this.getLabels().get(id)?.label;
  }

  /** Every label by target id, with the timestamp of the label entry that set it. */
  getLabels(): ReadonlyMap<string, Readonly<ResolvedLabel>> {
    return this.tolerateCorruptLines(() => this.labels.all());
  }

  /** The session name: the latest `session_info` in file order, trimmed; `undefined` when empty or unset. */
  getSessionName(): string | undefined {
    this.sessionName ??= this.tolerateCorruptLines(() => {
      for (let index = this.table.size - 1; index >= 0; index--) {
        if (this.table.typeOf(index) !== "session_info" || this.table.isHidden(index)) continue;
        const entry = this.table.entry(index) as SessionInfoEntry;
        if (this.table.isInvalid(index)) continue;
        return { value: entry.name?.trim() || undefined };
      }
      return { value: undefined };
    });
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
    return this.tolerateCorruptLines(() => {
      if (leafId === undefined) return this.projection.get(this.leaf);
      const index = leafId === null ? -1 : this.requireIndex(leafId);
      if (index === this.leaf) return this.projection.get(this.leaf);
      return new ProjectionCache(this.table, false).get(index);
    });
  }

  /**
   * The asynchronous read seam, for storages that load only the light records (PostgreSQL): reads
   * ahead, through `storage.fetchEntries`, the entries that {@link getProjection} of the current
   * leaf, {@link getLabels} and {@link getSessionName} will read, in a few batched round trips (the
   * records say most of it; the projection's own path scan finds the rest), so that those calls
   * then read nothing from the backend. Resolves at once for storages that hold every line (JSONL,
   * memory). Reads outside what was fetched still work, through the storage's synchronous fallback.
   * Does not change what any read returns. Rejects with the storage's typed error.
   */
  async prefetchProjection(): Promise<void> {
    const { storage } = this;
    if (storage.fetchEntries === undefined || storage.hasEntry === undefined) return;
    const hasEntry = (index: number) => storage.hasEntry?.(index) !== false;
    // Each round after the first fetches at least one entry not held: at most one round per entry.
    for (let round = 0; round <= this.table.size + 1; round++) {
      const missing = nextProjectionFetch(this.table, this.leaf, round, hasEntry);
      if (missing.length === 0 && round > 0) return;
      if (missing.length > 0) await storage.fetchEntries(missing);
    }
  }

  /** Moves the leaf to an entry; the next append creates a child of it (a new branch). Writes nothing. */
  branch(entryId: string): void {
    this.leaf = this.requireIndex(entryId);
  }

  /** Empties the leaf: the next append creates a new root (`parentId: null`). Writes nothing. */
  resetLeaf(): void {
    this.leaf = -1;
  }

  /** Flushes and releases the backend (locks included). Idempotent; the store is unusable afterwards. */
  close(): void {
    if (this.writer.closed) return;
    this.writer.closed = true;
    this.storage.close();
  }

  /** @internal */
  protected requireIndex(entryId: string): number {
    const index = this.table.indexOf(entryId);
    if (index === undefined) {
      throw new SessionStoreError("ENTRY_NOT_FOUND", `Entry ${entryId} not found`, {
        sessionFile: this.where,
        entryId,
      });
    }
    return index;
  }

  /** @internal */
  protected assertOpen(): void {
    if (this.writer.closed)
      throw new SessionStoreError("SESSION_CLOSED", "The session store is closed", {
        sessionFile: this.where,
      });
  }

  /**
   * Runs a read, and when it meets an entry whose line does not parse (the fast load scan reads only
   * the start of each line), treats that line as if it had been found corrupt at load: reports
   * `SESSION_LINE_CORRUPT`, leaves the entry out (its children lose their parent, as in pi), moves a
   * leaf that was that entry, and runs the read again. Each retry hides one more entry, so it ends.
   * @internal
   */
  protected tolerateCorruptLines<T>(read: () => T): T {
    for (;;) {
      try {
        return read();
      } catch (error) {
        if (!(error instanceof CorruptLineFound)) throw error;
        // A read of an entry already left out would repeat forever: that is a bug, not bad input.
        if (error.again)
          throw new Error(`Internal error: entry #${error.index} was read after it was left out`);
        this.leaveOutCorruptLine(error);
      }
    }
  }

  /** @internal Updates the view after the table hid the entry of a corrupt line (see {@link tolerateCorruptLines}). */
  protected leaveOutCorruptLine(found: CorruptLineFound): void {
    const { storageError, index } = found;
    this.report({
      code: "SESSION_LINE_CORRUPT",
      message: `${storageError.message} The entry is left out of the session, as if the line had been found corrupt when the file was opened.`,
      sessionFile: this.where,
      ...(storageError.line !== undefined ? { line: storageError.line } : {}),
      ...(storageError.entryId !== undefined ? { entryId: storageError.entryId } : {}),
    });
    this.projection.invalidate();
    this.labels.invalidate();
    this.sessionName = undefined;
    if (this.leaf === index) {
      // The load leaf is the last entry in file order: without this line, the one before it. A leaf
      // moved there by the caller goes to its parent, where appending continues the same branch.
      this.leaf = index === this.loadedLeaf ? this.table.lastVisible() : this.table.parentOf(index);
    }
  }

  /** @internal */
  protected reportEntryProblem(problem: EntryProblem): void {
    const line = this.storage.lineOf?.(problem.index);
    const where =
      this.where !== undefined
        ? `${this.where}${line !== undefined ? `:${line}` : ""}: `
        : line !== undefined
          ? `line ${line}: `
          : "";
    this.report({
      code: "SESSION_ENTRY_INVALID",
      message: `${where}entry ${problem.entryId ?? `#${problem.index}`} is invalid (${problem.problem}). It stays in the file unchanged and is left out of the projection.`,
      sessionFile: this.where,
      ...(line !== undefined ? { line } : {}),
      ...(problem.entryId !== undefined ? { entryId: problem.entryId } : {}),
    });
  }

  /** @internal */
  protected report(issue: SessionIssue): void {
    this.problems.push(issue);
    this.options.onIssue?.(issue);
  }
}
