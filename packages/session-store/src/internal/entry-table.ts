import type { SessionEntry } from "../session-entry";
import { SessionStorageError } from "../storage/session-storage-error";
import { CorruptLineFound } from "./corrupt-line-found";
import { EntryNotFetched } from "./entry-not-fetched";
import { IdIndex } from "./id-index";
import type { RecordColumns } from "./record-columns";
import { findEntryProblem } from "./validate-entry";

/** Reads the full entry at a loaded index (for JSONL: parses the line on demand). */
export type EntryReader = (index: number) => Record<string, unknown>;

/**
 * An entry that failed structural validation. The entry stays in the file and in the tree; the
 * session view leaves it out of branches and projections (see `EntryTable.isInvalid`).
 */
export interface EntryProblem {
  index: number;
  entryId: string | undefined;
  problem: string;
}

const UNRESOLVED = -2;
const NO_PARENT = -1;

/** What a backend may provide to spare the table its own id work (see `StorageLoadResult`). */
export interface BackendIndex {
  /** `parentIndex[i]`: index of loaded entry i's parent; -1, -2, -3: none (root, no field, unknown id). */
  parentIndex?: Int32Array;
  /** Index of the last loaded entry with `id` (appended entries may be included), or `undefined`. */
  indexOfId?: (id: string) => number | undefined;
  /** Whether the backend holds loaded entry `index`'s line (asynchronous read seam; absent: always). */
  hasEntry?: (index: number) => boolean;
  /** Whether two loaded entries share an id (stray `type: "session"` lines never count). */
  repeatedIds?: boolean;
}

/**
 * All entries of a session, addressed by index in file order, without materializing them: tree
 * walks use the light records (id, parentId, type, role); full entries are read on demand and
 * validated the first time. Entries appended in this process are kept in memory.
 *
 * Ids: the last entry in file order with an id wins, as with pi's `byId`. Parents and id lookups of
 * loaded entries come from the backend when it provides them (`BackendIndex`); otherwise the table's
 * own lookup covers loaded entries from the end of the file backwards, growing only as lookups need it
 * (a walk up from a recent leaf touches the recent part of a large file). Entries appended in this
 * process are always in the table's own lookup.
 */
export class EntryTable {
  /** The loaded entries' records (entries appended in this process are in `appended`). */
  private readonly loaded: RecordColumns;
  private readonly appended: SessionEntry[] = [];
  private readonly loadedCount: number;
  /** Loaded entries' ids looked up so far, for a backend without `indexOfId` (compact). */
  private readonly ids: IdIndex;
  /** Appended entries' ids (few per process: a native map is the cheapest per append). */
  private readonly appendedIds = new Map<string, number>();
  /** Loaded entries from this index on are in `ids`. */
  private coveredFrom: number;
  private typesPresent: Set<string> | undefined;
  private parents: Int32Array;
  /** Per loaded entry: 0 not yet validated, 1 valid, 2 invalid. */
  private readonly checked: Uint8Array;
  /** Entries held by the projection cache, so repeated reads return the same objects. */
  private pinned: ReadonlyMap<number, SessionEntry> = new Map();
  /** Loaded entries whose line turned out not to parse when first read: left out from then on. */
  private corrupt: Set<number> | undefined;
  /** Loaded entries validated so far (`checked` not 0). */
  private validatedLoaded = 0;
  /**
   * During a dry scan (see {@link EntryTable.dryScan}): whether each loaded entry read so far, not yet
   * validated for real, is invalid.
   */
  private dry: Map<number, boolean> | undefined;

  constructor(
    loaded: RecordColumns,
    private readonly read: EntryReader,
    private readonly onProblem: (problem: EntryProblem) => void,
    private readonly backend: BackendIndex = {},
  ) {
    this.loaded = loaded;
    this.loadedCount = loaded.size;
    this.parents = new Int32Array(Math.max(16, this.loadedCount)).fill(UNRESOLVED);
    this.checked = new Uint8Array(this.loadedCount);
    this.ids = new IdIndex((at) => this.idOf(at));
    this.coveredFrom = backend.indexOfId ? 0 : this.loadedCount;
  }

  /** Number of entries (loaded and appended). */
  get size(): number {
    return this.loadedCount + this.appended.length;
  }

  /**
   * Entries checked against their type's structure so far: loaded entries read at least once, and
   * every appended entry (validated before it was written).
   */
  get validatedCount(): number {
    return this.validatedLoaded + this.appended.length;
  }

  /** True when entry `index` was loaded from the storage (not appended in this process). */
  isLoaded(index: number): boolean {
    return index < this.loadedCount;
  }

  /** The id of entry `index` (`undefined` only for a version-1 entry). */
  idOf(index: number): string | undefined {
    return index < this.loadedCount ? this.loaded.idOf(index) : this.appendedAt(index).id;
  }

  /** True when the loaded records may keep ids as bytes (see {@link EntryTable.copyIdBytes}). */
  get keepsIdBytes(): boolean {
    return this.loaded.copyIdBytes !== undefined;
  }

  /**
   * Copies entry `index`'s id into `out` at `at` as ASCII bytes when the loaded records keep it so
   * (see `RecordColumns.copyIdBytes`) and returns how many; 0 otherwise (ask {@link EntryTable.idOf}).
   */
  copyIdBytes(index: number, out: Uint8Array, at: number): number {
    return index < this.loadedCount ? (this.loaded.copyIdBytes?.(index, out, at) ?? 0) : 0;
  }

  /** True when entry `index` has an id (asked without making the id a string). */
  hasId(index: number): boolean {
    return index < this.loadedCount ? this.loaded.hasId(index) : this.appendedAt(index).id !== undefined;
  }

  /** The `parentId` of entry `index`. */
  parentIdOf(index: number): string | null | undefined {
    return index < this.loadedCount ? this.loaded.parentIdOf(index) : this.appendedAt(index).parentId;
  }

  /** The `type` of entry `index`. */
  typeOf(index: number): string {
    return index < this.loadedCount ? this.loaded.typeOf(index) : this.appendedAt(index).type;
  }

  /** The `message.role` of message entry `index`, when it has one. */
  roleOf(index: number): string | undefined {
    if (index < this.loadedCount) return this.loaded.roleOf(index);
    const entry = this.appendedAt(index);
    const message = entry.type === "message" ? (entry.message as { role?: unknown } | undefined) : undefined;
    return typeof message?.role === "string" ? message.role : undefined;
  }

  private appendedAt(index: number): SessionEntry {
    return this.appended[index - this.loadedCount] as SessionEntry;
  }

  /** Index of the entry with this id (the last one in file order for duplicated ids). */
  indexOf(id: string): number | undefined {
    // Appended entries come last in file order: they win over a loaded entry with the same id.
    let found = this.appendedIds.size === 0 ? undefined : this.appendedIds.get(id);
    if (found !== undefined) return found;
    // Empty unless a backend without `indexOfId` made lookups cover loaded entries: skip hashing then.
    found = this.ids.size === 0 ? undefined : this.ids.get(id);
    if (found !== undefined) return this.corrupt?.has(found) ? undefined : found;
    if (this.backend.indexOfId) {
      found = this.backend.indexOfId(id);
      return found !== undefined && found < this.loadedCount && !this.isHidden(found) ? found : undefined;
    }
    while (found === undefined && this.coveredFrom > 0) {
      this.extendCoverage();
      found = this.ids.get(id);
    }
    return found !== undefined && this.corrupt?.has(found) ? undefined : found;
  }

  /** True when some entry has this id (an unknown id makes the lookup cover the whole session). */
  has(id: string): boolean {
    return this.indexOf(id) !== undefined;
  }

  /**
   * False when no two entries can share an id: the backend said so of the loaded entries and none was
   * appended since. True when that is not known (a caller must then check the ids itself).
   */
  mayRepeatIds(): boolean {
    return this.backend.repeatedIds !== false || this.appended.length > 0;
  }

  /**
   * False when no entry has this `type`; true when one has, or may have: the loaded records' types
   * come from the backend's list when it keeps one (`RecordColumns.knownTypes`, a superset), else from
   * a scan of every record on the first call.
   */
  mayHaveType(type: string): boolean {
    if (!this.typesPresent) {
      const known = this.loaded.knownTypes?.();
      const types = new Set<string>(known);
      // Records of a type share one string (the backends intern them): compare before hashing.
      let last: string | undefined;
      for (let index = known === undefined ? 0 : this.loadedCount; index < this.size; index++) {
        const recordType = this.typeOf(index);
        if (recordType !== last) {
          types.add(recordType);
          last = recordType;
        }
      }
      this.typesPresent = types;
    }
    return this.typesPresent.has(type);
  }

  /**
   * True for a stray `type: "session"` line after the header: pi ignores such lines (they are no tree
   * node), so does the store; they stay in the file.
   */
  isHidden(index: number): boolean {
    return this.typeOf(index) === "session" || this.corrupt?.has(index) === true;
  }

  /**
   * True when entry `index` failed validation when it was read ({@link EntryTable.entry} validates
   * on first read, so ask after reading it). Such an entry keeps its place in the tree (its children
   * stay linked through it) but contributes nothing: no messages, no settings, no label, no name.
   * Appended entries are validated before they are written, so they are never invalid.
   */
  isInvalid(index: number): boolean {
    return index < this.loadedCount && (this.checked[index] === 2 || this.dry?.get(index) === true);
  }

  /**
   * Runs `scan` as a dry scan: {@link EntryTable.entry} of a loaded entry throws
   * {@link EntryNotFetched} when the backend does not hold its line (`hasEntry`), and otherwise reads
   * it without a trace: no validation counted, no problem reported, no line marked corrupt (a line
   * that does not parse throws the backend's error). What reads return afterwards is unchanged. Used
   * by the prefetch to find what the projection will read (`nextProjectionFetch`).
   */
  dryScan<T>(scan: () => T): T {
    this.dry = new Map();
    try {
      return scan();
    } finally {
      this.dry = undefined;
    }
  }

  private dryEntry(index: number): SessionEntry {
    if (this.backend.hasEntry?.(index) === false) throw new EntryNotFetched(index);
    const entry = this.read(index);
    if (this.checked[index] === 0 && !this.dry?.has(index)) {
      this.dry?.set(index, findEntryProblem(entry) !== undefined);
    }
    return entry as unknown as SessionEntry;
  }

  /** True when the line of loaded entry `index` was found corrupt when it was read. */
  isCorrupt(index: number): boolean {
    return this.corrupt?.has(index) === true;
  }

  /** The last visible entry index in file order (the leaf after load), or -1. */
  lastVisible(): number {
    let index = this.size - 1;
    while (index >= 0 && this.isHidden(index)) index--;
    return index;
  }

  /**
   * Index of the parent of `index`, or -1 for a root or a missing parent. A parent whose line turned
   * out corrupt counts as missing, as it would had the line been dropped at load.
   */
  parentOf(index: number): number {
    const parent = this.resolveParent(index);
    return parent >= 0 && this.corrupt?.has(parent) ? NO_PARENT : parent;
  }

  private resolveParent(index: number): number {
    let parent = this.parents[index] as number;
    if (parent === UNRESOLVED) {
      const loaded = index < this.loadedCount;
      const fromBackend = loaded ? this.backend.parentIndex?.[index] : undefined;
      // Asked without making the parent id a string (a walk up a long path would make one per step).
      if (!(loaded ? this.loaded.hasParentId(index) : this.appendedAt(index).parentId)) parent = NO_PARENT;
      else if (fromBackend !== undefined) parent = fromBackend >= 0 ? fromBackend : NO_PARENT;
      else parent = this.indexOf(this.parentIdOf(index) as string) ?? NO_PARENT;
      this.parents[index] = parent;
    }
    return parent;
  }

  /**
   * The full entry at `index`. A loaded entry is read through the backend and validated the first
   * time (problems are reported once, the entry is still returned; see {@link EntryTable.isInvalid}).
   * Not a copy: do not mutate.
   * Throws {@link CorruptLineFound} when the entry's line does not parse (the entry is hidden from
   * then on), and what the backend throws otherwise.
   */
  entry(index: number): SessionEntry {
    if (index >= this.loadedCount) return this.appended[index - this.loadedCount] as SessionEntry;
    const pinned = this.pinned.get(index);
    if (pinned) return pinned;
    if (this.dry !== undefined) return this.dryEntry(index);
    const known = this.corrupt?.has(index) === true;
    let entry: Record<string, unknown>;
    try {
      entry = this.read(index);
    } catch (error) {
      if (!SessionStorageError.isInstance(error) || error.code !== "SESSION_LINE_CORRUPT") throw error;
      this.corrupt ??= new Set();
      this.corrupt.add(index);
      throw new CorruptLineFound(index, error as SessionStorageError, known);
    }
    if (this.checked[index] === 0) {
      const problem = findEntryProblem(entry);
      this.checked[index] = problem === undefined ? 1 : 2;
      this.validatedLoaded++;
      if (problem !== undefined) this.onProblem({ index, entryId: this.idOf(index), problem });
    }
    return entry as unknown as SessionEntry;
  }

  /**
   * Keeps these materialized entries for reuse; drops earlier pins. Takes the map as it is (no copy):
   * the caller must not change it afterwards. Entries appended in this process in it are never looked
   * up there.
   */
  pin(entries: ReadonlyMap<number, SessionEntry>): void {
    this.pinned = entries;
  }

  /** Adds an entry appended in this process; returns its index. */
  push(entry: SessionEntry): number {
    const index = this.size;
    this.appended.push(entry);
    if (index >= this.parents.length) {
      const grown = new Int32Array(this.parents.length * 2).fill(UNRESOLVED);
      grown.set(this.parents);
      this.parents = grown;
    }
    this.appendedIds.set(entry.id, index);
    this.typesPresent?.add(entry.type);
    return index;
  }

  /** Every entry index of the given type, in file order. O(size) over records only. */
  indicesOfType(type: string): number[] {
    const found: number[] = [];
    for (let index = 0; index < this.size; index++) {
      if (this.typeOf(index) === type && !this.corrupt?.has(index)) found.push(index);
    }
    return found;
  }

  /** Adds the next chunk of loaded entries (going backwards) to the id lookup; chunks double. */
  private extendCoverage(): void {
    const chunk = Math.max(4096, this.loadedCount - this.coveredFrom);
    const stop = Math.max(0, this.coveredFrom - chunk);
    this.ids.reserve(this.ids.size + (this.coveredFrom - stop));
    for (let at = this.coveredFrom - 1; at >= stop; at--) {
      const id = this.loaded.idOf(at);
      if (id !== undefined && this.loaded.typeOf(at) !== "session") this.ids.setIfAbsent(id, at);
    }
    this.coveredFrom = stop;
  }
}
