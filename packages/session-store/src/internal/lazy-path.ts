/**
 * The projection's path rules (see `projection/`) evaluated on light records, walking up from the
 * leaf only as far as needed: to the latest compaction's first kept entry, and until the thinking
 * level and model are known. Full entries are read only where a field is needed. Results equal the
 * pure functions' on the same path.
 *
 * Ids are compared as indices. That is exact for the store: every path entry is the last entry in
 * file order with its id (parents resolve that way, and the store's leaf always is one), so a path
 * never repeats an id.
 *
 * Parent cycles (hand-edited files only) need a parent at or after its child in file order; walks
 * switch to a visited set when they meet such a link, and stop before the first repeat (as pi's path
 * would, if pi did not loop forever).
 */
import type { SessionContextSettings } from "../projection/session-projection";
import type { SessionEntry } from "../session-entry";
import type { EntryTable } from "./entry-table";

/**
 * Entry indices from `leaf` up to the root (leaf first). `leaf` -1 gives an empty array. One walk,
 * into an array that doubles when full (a second walk to count the path first cost more: at 100,000
 * entries each step asks the table for a parent, in code not optimized yet).
 */
export function walkToRoot(table: EntryTable, leaf: number): Int32Array {
  let upward = new Int32Array(256);
  let length = 0;
  for (let current = leaf; current >= 0; ) {
    if (length === upward.length) {
      const grown = new Int32Array(length * 2);
      grown.set(upward);
      upward = grown;
    }
    upward[length++] = current;
    const parent = table.parentOf(current);
    if (parent >= current) return Int32Array.from(walkWithVisitedSet(table, leaf));
    current = parent;
  }
  return upward.subarray(0, length);
}

/**
 * Calls `visit` with each entry index from `leaf` upward until it returns `true` or the root is
 * passed: the entries of {@link walkToRoot}, in its order, without making the array unless the path
 * has a backward link (then from the visited-set walk, skipping the entries already visited).
 */
export function walkUpUntil(table: EntryTable, leaf: number, visit: (index: number) => boolean): void {
  let steps = 0;
  for (let current = leaf; current >= 0; steps++) {
    if (visit(current)) return;
    const parent = table.parentOf(current);
    if (parent >= current) {
      const upward = walkWithVisitedSet(table, leaf);
      for (let at = steps + 1; at < upward.length; at++) if (visit(upward[at] as number)) return;
      return;
    }
    current = parent;
  }
}

function walkWithVisitedSet(table: EntryTable, leaf: number): number[] {
  const upward: number[] = [];
  const seen = new Set<number>();
  for (let current = leaf; current >= 0 && !seen.has(current); current = table.parentOf(current)) {
    seen.add(current);
    upward.push(current);
  }
  return upward;
}

/** True when entry `target` is on the path from the root to `leaf` (walks up until found). */
export function isOnPath(table: EntryTable, leaf: number, target: number): boolean {
  for (let current = leaf; current >= 0; ) {
    if (current === target) return true;
    const parent = table.parentOf(current);
    if (parent >= current) return walkToRoot(table, leaf).includes(target);
    current = parent;
  }
  return false;
}

/**
 * Entry indices from `leaf` up to where the projection starts (leaf first): up to the latest
 * compaction's first kept entry, or to the compaction when it keeps nothing, or to the root when the
 * path has no compaction. Everything the projection shows lies in this part of the path.
 */
export function walkToContextStart(table: EntryTable, leaf: number): number[] {
  const scanner = new PathScanner(table, false);
  walkUpUntil(table, leaf, (index) => scanner.visit(index));
  return scanner.visited();
}

/** What {@link scanPath} found. */
export interface PathScan {
  /** Context entry indices in order, as `selectContextEntries` selects them. */
  context: number[];
  /** Thinking level and model of the full path (`undefined` when not asked for). */
  settings: SessionContextSettings | undefined;
  /** Entries the scan read, by index (so callers do not read them again). */
  read: Map<number, SessionEntry>;
}

/**
 * The context entry indices for `leaf` (the whole path without a compaction, else
 * `[compaction, ...kept (system messages excluded), ...after]`) and, with `withSettings`, the path's
 * thinking level and model (latest `thinking_level_change`; latest `model_change` or assistant).
 */
export function scanPath(table: EntryTable, leaf: number, withSettings: boolean): PathScan {
  let scanner = new PathScanner(table, withSettings);
  for (let current = leaf; current >= 0; ) {
    if (scanner.visit(current)) return scanner.result();
    const parent = table.parentOf(current);
    if (parent >= current) {
      scanner = new PathScanner(table, withSettings);
      const upward = walkToRoot(table, leaf);
      for (let at = 0; at < upward.length; at++) if (scanner.visit(upward[at] as number)) break;
      return scanner.result();
    }
    current = parent;
  }
  return scanner.result();
}

/** Visits path entries from the leaf upward and says when it has seen enough. */
class PathScanner {
  private readonly upward: number[] = [];
  private readonly read = new Map<number, SessionEntry>();
  private compactionStep = -1;
  private firstKept: number | undefined;
  private keptFrom = -1;
  private contextKnown = false;
  private readonly settings: SessionContextSettings = { thinkingLevel: "off", model: null };
  private thinkingKnown: boolean;
  /** Whether the table was asked if it holds any thinking level change at all (asked once, late). */
  private thinkingTypeAsked = false;
  private modelKnown: boolean;

  constructor(
    private readonly table: EntryTable,
    private readonly withSettings: boolean,
  ) {
    this.thinkingKnown = !withSettings;
    this.modelKnown = !withSettings;
  }

  /** Takes the next entry up the path; returns true when nothing further up can change the result. */
  visit(index: number): boolean {
    const table = this.table;
    const step = this.upward.push(index) - 1;
    const type = table.typeOf(index);
    // An invalid entry (see `EntryTable.isInvalid`) is passed through: it is neither a compaction
    // boundary nor a source of settings, and readers leave it out of the context.
    if (this.compactionStep < 0 && type === "compaction" && this.isValid(index)) {
      this.compactionStep = step;
      const id = (this.entry(index) as { firstKeptEntryId?: unknown }).firstKeptEntryId;
      this.firstKept = typeof id === "string" ? table.indexOf(id) : undefined;
      // Retain-none (its own id) or an id no entry has: nothing before the compaction is kept.
      this.contextKnown = this.firstKept === undefined || this.firstKept === index;
    } else if (this.compactionStep >= 0 && !this.contextKnown && index === this.firstKept) {
      this.keptFrom = step;
      this.contextKnown = true;
    }
    if (!this.thinkingKnown && type === "thinking_level_change" && this.isValid(index)) {
      const entry = this.entry(index);
      if (entry.type === "thinking_level_change") this.settings.thinkingLevel = entry.thinkingLevel;
      this.thinkingKnown = true;
    } else if (!this.modelKnown && type === "model_change" && this.isValid(index)) {
      const entry = this.entry(index);
      if (entry.type === "model_change")
        this.settings.model = { provider: entry.provider, modelId: entry.modelId };
      this.modelKnown = true;
    } else if (
      !this.modelKnown &&
      type === "message" &&
      table.roleOf(index) === "assistant" &&
      this.isValid(index)
    ) {
      const entry = this.entry(index);
      if (entry.type === "message" && entry.message.role === "assistant") {
        this.settings.model = { provider: entry.message.provider, modelId: entry.message.model };
      }
      this.modelKnown = true;
    }
    if (this.contextKnown && this.modelKnown && !this.thinkingKnown && !this.thinkingTypeAsked) {
      // Without any thinking level change in the session, the default needs no walk to the root. Asked
      // only now: the first call scans every record, and a path without a compaction goes to the root
      // anyway.
      this.thinkingTypeAsked = true;
      this.thinkingKnown = !this.table.mayHaveType("thinking_level_change");
    }
    return this.contextKnown && this.thinkingKnown && this.modelKnown;
  }

  /** The indices visited so far, leaf first. */
  visited(): number[] {
    return this.upward.slice();
  }

  private entry(index: number): SessionEntry {
    let entry = this.read.get(index);
    if (entry === undefined) {
      entry = this.table.entry(index);
      this.read.set(index, entry);
    }
    return entry;
  }

  /** Reads entry `index` (validating it) and says whether it passed. */
  private isValid(index: number): boolean {
    this.entry(index);
    return !this.table.isInvalid(index);
  }

  result(): PathScan {
    const { upward, compactionStep, keptFrom, table, read } = this;
    const settings = this.withSettings ? this.settings : undefined;
    if (compactionStep < 0) return { context: upward.slice().reverse(), settings, read };
    const context = [upward[compactionStep] as number];
    for (let step = keptFrom; step > compactionStep; step--) {
      const index = upward[step] as number;
      if (!(table.typeOf(index) === "message" && table.roleOf(index) === "system")) context.push(index);
    }
    for (let step = compactionStep - 1; step >= 0; step--) context.push(upward[step] as number);
    return { context, settings, read };
  }
}
