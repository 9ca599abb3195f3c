import type { SessionStore } from "@arbor/session-store";

/** An entry whose `parentId` names no entry of the session (see {@link findMissingParents}). */
export interface MissingParent {
  /** The entry's id. */
  entryId: string;
  /** The id its `parentId` names. */
  parentId: string;
  /** 1-based line of the entry, when the storage knows it. */
  line: number | null;
}

/**
 * The entries of `store` whose `parentId` is a string that names no entry of the session, or the
 * entry itself. pi reads such an entry as the root of a tree of its own (and so does the store): the
 * session loads, but what came before that entry is cut off. Such entries are among the tree's
 * roots, so only the roots are read. A parent the store already reported as damaged or invalid
 * (`reported`: the entry ids its issues name) is left out: that issue is the cause.
 */
export function findMissingParents(store: SessionStore, reported: ReadonlySet<string>): MissingParent[] {
  const links = store.getTreeLinks();
  const roots =
    links === undefined
      ? store.getTreeShape().map((node) => node.id)
      : links.roots.map((root) => links.id(root));
  const found: MissingParent[] = [];
  for (const id of roots) {
    const parentId = store.getEntry(id)?.parentId;
    if (typeof parentId !== "string" || reported.has(parentId)) continue;
    if (parentId !== id && store.getEntry(parentId) !== undefined) continue;
    const index = store.storage.indexOfId?.(id);
    const line = index === undefined ? undefined : store.storage.lineOf?.(index);
    found.push({ entryId: id, parentId, line: line ?? null });
  }
  return found;
}
