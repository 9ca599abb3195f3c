import { EntryNotFetched } from "./entry-not-fetched";
import type { EntryTable } from "./entry-table";
import { scanPath, walkUpUntil } from "./lazy-path";

/** How many entries of each kind the first round takes from the path (a second one covers an invalid first). */
const PER_KIND = 2;

/**
 * The entries to fetch next so that the projection of `leaf`, the labels and the session name read
 * only fetched lines; `[]` when nothing is missing. Round 0 decides from the light records alone:
 * the leaf, every label, the latest session infos, and up the path the nearest compactions, thinking
 * level changes and model sources. Later rounds run the projection's own path scan as a dry scan
 * (`EntryTable.dryScan`: nothing read leaves a trace): the first entry it lacks, else every context
 * entry not held. Each round returns at least one entry not held, or `[]` (also when a line does not
 * parse: the store's real reads report it), so the caller's loop ends. Never throws.
 */
export function nextProjectionFetch(
  table: EntryTable,
  leaf: number,
  round: number,
  hasEntry: (index: number) => boolean,
): number[] {
  if (round === 0) return firstReads(table, leaf).filter((index) => !hasEntry(index));
  try {
    const { context } = table.dryScan(() => scanPath(table, leaf, true));
    return context.filter((index) => !hasEntry(index));
  } catch (error) {
    if (error instanceof EntryNotFetched) return [error.index];
    // A line that does not parse: the store's own reads will find and report it. Stop here.
    return [];
  }
}

function firstReads(table: EntryTable, leaf: number): number[] {
  const wanted = new Set<number>(table.indicesOfType("label"));
  for (const index of table.indicesOfType("session_info").slice(-PER_KIND)) wanted.add(index);
  if (leaf < 0) return [...wanted];
  const taken = { compaction: 0, thinking: 0, model: 0 };
  walkUpUntil(table, leaf, (index) => {
    const type = table.typeOf(index);
    const kind =
      type === "compaction"
        ? "compaction"
        : type === "thinking_level_change"
          ? "thinking"
          : type === "model_change" || (type === "message" && table.roleOf(index) === "assistant")
            ? "model"
            : undefined;
    if (kind !== undefined && taken[kind] < PER_KIND) {
      taken[kind]++;
      wanted.add(index);
    }
    return taken.compaction >= PER_KIND && taken.thinking >= PER_KIND && taken.model >= PER_KIND;
  });
  wanted.add(leaf);
  return [...wanted];
}
