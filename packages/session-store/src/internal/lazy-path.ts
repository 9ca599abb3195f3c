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
 */
export function selectContextIndices(table: EntryTable, upward: readonly number[]): number[] {
  const latest = upward.findIndex((index) => table.record(index).type === "compaction");
  const rootFirst = upward.slice().reverse();
  if (latest < 0) return rootFirst;
  const compactionIndex = upward[latest] as number;
  const compaction = table.entry(compactionIndex) as { id: string; firstKeptEntryId?: unknown };
  // The position is the first path entry carrying the compaction's id (as pi's findIndex).
  let position = 0;
  while (position < rootFirst.length && table.record(rootFirst[position] as number).id !== compaction.id)
    position++;
  if (position >= rootFirst.length) return rootFirst;
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
