/**
 * The projection's path rules (see `projection/`) evaluated on light records: they return entry
 * indices and read full entries only where a field is needed (the compaction's `firstKeptEntryId`,
 * the thinking level, the model). The results equal the pure functions' on the same path.
 */
import type { SessionContextSettings } from "../projection/session-projection";
import type { EntryTable } from "./entry-table";

/**
 * Entry indices from `leaf` up to the root (leaf first). `leaf` -1 gives `[]`. Stops at a missing
 * parent, or before revisiting an entry (a parent cycle in a hand-edited file).
 */
export function walkToRoot(table: EntryTable, leaf: number): number[] {
  const upward: number[] = [];
  let current = leaf;
  while (current >= 0) {
    upward.push(current);
    if (upward.length > table.size) return walkToRootGuarded(table, leaf);
    current = table.parentOf(current);
  }
  return upward;
}

function walkToRootGuarded(table: EntryTable, leaf: number): number[] {
  const upward: number[] = [];
  const seen = new Set<number>();
  for (let current = leaf; current >= 0 && !seen.has(current); current = table.parentOf(current)) {
    seen.add(current);
    upward.push(current);
  }
  return upward;
}

/**
 * The context entry indices (root-first order) for a path given leaf-first: the whole path without a
 * compaction, else `[compaction, ...kept (system messages excluded), ...after]`, exactly as
 * `selectContextEntries`.
 *
 * Ids are compared as indices: every path entry but the leaf was reached through a parent link, so it
 * is the last entry in file order with its id, and only the leaf can repeat an ancestor's id (a
 * hand-edited file). That case takes the string-comparing route.
 */
export function selectContextIndices(table: EntryTable, upward: readonly number[]): number[] {
  const latest = upward.findIndex((index) => table.record(index).type === "compaction");
  if (latest < 0) return upward.slice().reverse();
  const compactionIndex = upward[latest] as number;
  const compaction = table.entry(compactionIndex) as { id: string; firstKeptEntryId?: unknown };
  if (latest === 0 && upward.some((index, step) => step > 0 && table.record(index).id === compaction.id)) {
    return selectByIds(table, upward.slice().reverse(), compactionIndex, compaction);
  }
  const firstKept =
    typeof compaction.firstKeptEntryId === "string" ? table.indexOf(compaction.firstKeptEntryId) : undefined;
  let keptFrom = -1;
  if (firstKept !== undefined && firstKept !== compactionIndex) {
    for (let step = latest + 1; step < upward.length; step++) {
      if (upward[step] === firstKept) {
        keptFrom = step;
        break;
      }
    }
  }
  const context = [compactionIndex];
  for (let step = keptFrom; step > latest; step--) {
    const index = upward[step] as number;
    const record = table.record(index);
    if (!(record.type === "message" && record.role === "system")) context.push(index);
  }
  for (let step = latest - 1; step >= 0; step--) context.push(upward[step] as number);
  return context;
}

/** `selectContextIndices` by string ids, as pi compares them (only needed with duplicated ids). */
function selectByIds(
  table: EntryTable,
  rootFirst: readonly number[],
  compactionIndex: number,
  compaction: { id: string; firstKeptEntryId?: unknown },
): number[] {
  // The position is the first path entry carrying the compaction's id (as pi's findIndex).
  const position = rootFirst.findIndex((index) => table.record(index).id === compaction.id);
  const context = [compactionIndex];
  let foundFirstKept = false;
  for (let step = 0; step < position; step++) {
    const index = rootFirst[step] as number;
    const record = table.record(index);
    if (record.id === compaction.firstKeptEntryId) foundFirstKept = true;
    if (foundFirstKept && !(record.type === "message" && record.role === "system")) context.push(index);
  }
  for (let step = position + 1; step < rootFirst.length; step++) context.push(rootFirst[step] as number);
  return context;
}

/**
 * Thinking level and model of a path given leaf-first: scans upward and reads only the latest
 * `thinking_level_change` and the latest `model_change` / assistant message.
 */
export function readPathSettings(table: EntryTable, upward: readonly number[]): SessionContextSettings {
  const settings: SessionContextSettings = { thinkingLevel: "off", model: null };
  let thinkingFound = false;
  let modelFound = false;
  for (const index of upward) {
    if (thinkingFound && modelFound) break;
    const record = table.record(index);
    if (!thinkingFound && record.type === "thinking_level_change") {
      const entry = table.entry(index);
      if (entry.type === "thinking_level_change") settings.thinkingLevel = entry.thinkingLevel;
      thinkingFound = true;
    } else if (!modelFound && record.type === "model_change") {
      const entry = table.entry(index);
      if (entry.type === "model_change")
        settings.model = { provider: entry.provider, modelId: entry.modelId };
      modelFound = true;
    } else if (!modelFound && record.type === "message" && record.role === "assistant") {
      const entry = table.entry(index);
      if (entry.type === "message" && entry.message.role === "assistant") {
        settings.model = { provider: entry.message.provider, modelId: entry.message.model };
      }
      modelFound = true;
    }
  }
  return settings;
}
