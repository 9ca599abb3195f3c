import { createInMemorySessionStore, type SessionEntry, type SessionStore } from "@arbor/session-store";
import type { SessionCore } from "../internal/session-core";

/** The in-memory copy of a session's branch, and the session's path it holds (root first). */
interface BranchMirror {
  store: SessionStore;
  header: SessionStore["header"];
  ids: string[];
}

const mirrors = new WeakMap<SessionStore, BranchMirror>();

/**
 * An in-memory copy of the session's current branch (header and entries, ids and parents kept) with
 * its leaf at the branch's end, to apply a boundary handler's drafts to without touching the session.
 * The in-memory store keeps entries as JSON lines, so it shares no object with the session.
 *
 * The copy is kept between calls: when the session's path still starts with the path copied before
 * (the usual case, a few turns appended since), its leaf goes back to the end of that path, leaving
 * the drafts of earlier previews on side branches the projection does not see, and only the new
 * entries are copied. A long session then costs each boundary what it appended, not its whole path
 * (copying 8,000 entries at every turn of a context policy made `arbor replay` quadratic). It is
 * made again from the whole branch when the path is not a continuation (the leaf moved to another
 * branch, an entry was found invalid), the header changed, or a new entry's id is already taken in
 * the copy (by a draft of an earlier preview).
 */
export function previewStore(core: SessionCore): SessionStore {
  const session = core.store;
  const path = session.getPathIds();
  const mirror = mirrors.get(session);
  if (mirror !== undefined && mirror.header === session.header && continues(mirror.ids, path)) {
    const fresh = freshEntries(session, mirror.store, path.slice(mirror.ids.length));
    if (fresh !== undefined) {
      const last = mirror.ids.at(-1);
      if (last === undefined) mirror.store.resetLeaf();
      else mirror.store.branch(last);
      if (fresh.length > 0) mirror.store.importEntries(fresh);
      mirror.ids = path;
      return mirror.store;
    }
  }
  const store = createInMemorySessionStore({ entries: [session.header, ...session.getBranch()] });
  mirrors.set(session, { store, header: session.header, ids: store.getPathIds() });
  return store;
}

/** True when `path` starts with `copied` (ids are unique on a path, so its last id at its place says so). */
function continues(copied: readonly string[], path: readonly string[]): boolean {
  return path.length >= copied.length && (copied.length === 0 || path[copied.length - 1] === copied.at(-1));
}

/**
 * The session's entries for `ids`, or `undefined` when one cannot be copied as it is: the session
 * cannot read it, or the copy already has an entry with its id.
 */
function freshEntries(
  session: SessionStore,
  copy: SessionStore,
  ids: readonly string[],
): SessionEntry[] | undefined {
  const entries: SessionEntry[] = [];
  for (const id of ids) {
    const entry = session.getEntry(id);
    if (entry === undefined || copy.getEntry(id) !== undefined) return undefined;
    entries.push(entry);
  }
  return entries;
}
