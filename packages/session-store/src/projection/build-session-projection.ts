import type { ContextEditEntry, SessionEntry } from "../session-entry";
import { selectContextEntries } from "./build-context-entries";
import { buildSessionPath } from "./build-session-path";
import { getSessionContextSettings } from "./get-session-context-settings";
import { projectContextEntry } from "./project-context-entry";
import type { ProjectedSessionEntry, SessionProjection } from "./session-projection";

/** Collects the context edits among `contextEntries` by target id; the latest edit wins. */
export function collectContextEdits(contextEntries: readonly SessionEntry[]): Map<string, ContextEditEntry> {
  const edits = new Map<string, ContextEditEntry>();
  for (const entry of contextEntries) if (entry.type === "context_edit") edits.set(entry.targetId, entry);
  return edits;
}

/**
 * Projects context entries (as selected by `selectContextEntries`) with the edits found among them.
 * An older compaction retained inside the kept range (index > 0) contributes nothing: only the
 * newest compaction, at index 0, contributes its checkpoint and summary. Pure.
 */
export function projectContextEntries(contextEntries: readonly SessionEntry[]): ProjectedSessionEntry[] {
  const edits = collectContextEdits(contextEntries);
  return contextEntries.map((sourceEntry, index) => ({
    sourceEntry,
    messages:
      sourceEntry.type === "compaction" && index > 0
        ? []
        : projectContextEntry(sourceEntry, edits.get(sourceEntry.id)),
  }));
}

/**
 * What the model sees for a leaf, with provenance (pi 1.6.0's `buildSessionProjection`):
 * 1. the path to the leaf (`buildSessionPath` rules for `leafId`);
 * 2. thinking level and model from the **full** path;
 * 3. the compaction-aware context entries (`selectContextEntries`);
 * 4. context edits found among those entries (latest wins; edits summarized away do not apply);
 * 5. each entry projected with `projectContextEntry` (metadata entries appear with `messages: []`).
 *
 * Pure: never mutates; `sourceEntry` values are the given objects.
 */
export function buildSessionProjection(
  entries: readonly SessionEntry[],
  leafId?: string | null,
  byId?: ReadonlyMap<string, SessionEntry>,
): SessionProjection {
  const path = buildSessionPath(entries, leafId, byId);
  const { thinkingLevel, model } = getSessionContextSettings(path);
  const projected = projectContextEntries(selectContextEntries(path));
  return {
    entries: projected,
    messages: projected.flatMap((entry) => entry.messages),
    thinkingLevel,
    model,
  };
}
