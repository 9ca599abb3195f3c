/** The golden description of a store (as scripts/make-goldens.mjs builds it from pi), shared by the conformance tests of every backend. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { arborAdapter, collectProjections, describeTree, normalizeIds } from "../../scripts/golden-format.mjs";
import type { SessionEntry } from "../session-entry";
import type { SessionStore } from "../session-store";

export const goldensDir = join(import.meta.dirname, "..", "__goldens__");
export const fixturesDir = join(import.meta.dirname, "sessions");
export const scenariosDir = join(import.meta.dirname, "scenarios");

export interface SessionGolden {
  refs: string[];
  header: { version?: number };
  leafAfterLoad: string | null;
  sessionName: string | null;
  labels: Record<string, string>;
  entries: unknown[];
  tree: unknown[];
  messages: unknown[];
  projections: unknown[];
}

export function readGolden<T>(name: string): T {
  return JSON.parse(readFileSync(join(goldensDir, name), "utf8")) as T;
}

export function idMap(entries: readonly SessionEntry[], refs: readonly string[]): Map<string, string> {
  return new Map(entries.map((entry, k) => [entry.id, refs[k] ?? entry.id]));
}

/** The golden description of a store, as make-goldens.mjs builds it from pi. */
export function describeStore(store: SessionStore, refs: readonly string[]) {
  const entries = store.getEntries();
  const idToRef = idMap(entries, refs);
  const labels: Record<string, string> = {};
  for (const entry of entries) {
    const label = store.getLabel(entry.id);
    if (label !== undefined) labels[idToRef.get(entry.id) as string] = label;
  }
  const leaf = store.leafId;
  return {
    header: { version: store.header.version },
    leafAfterLoad: leaf === null ? null : idToRef.get(leaf),
    sessionName: store.getSessionName() ?? null,
    labels,
    entries: entries.map((entry) => normalizeIds(entry, idToRef)),
    tree: describeTree(store.getTree(), idToRef),
    ...collectProjections(arborAdapter(store), idToRef),
  };
}

